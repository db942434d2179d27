#include "render/scene_renderer.hpp"

#include "render/sensor_geometry.hpp"

#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>

namespace ndem::app {

namespace {

glm::mat4 wallModel(const Wall& w) {
    const glm::quat q(static_cast<float>(w.orientation.w()), static_cast<float>(w.orientation.x()),
                      static_cast<float>(w.orientation.y()), static_cast<float>(w.orientation.z()));
    glm::mat4 m = glm::mat4_cast(q);
    m[3] = glm::vec4(static_cast<float>(w.position.x()), static_cast<float>(w.position.y()),
                     static_cast<float>(w.position.z()), 1.0f);
    return m;
}

/// Planes and boxes (floors, belts) are solid grey; shells we look into are pale blue glass.
glm::vec4 wallColour(const Wall& w, bool translucent) {
    if (translucent) return {0.62f, 0.75f, 0.9f, 0.18f};
    if (w.shape == WallShape::Mesh) return {0.55f, 0.58f, 0.62f, 1.0f};
    return {0.42f, 0.44f, 0.47f, 1.0f};
}

}  // namespace

SceneRenderer::~SceneRenderer() = default;

bool SceneRenderer::link(QOpenGLShaderProgram& program, const char* vert, const char* frag,
                         std::string* error) {
    // shading.glsl and colour_map.glsl hold functions the fragment shaders declare and call.
    const bool ok =
        program.addShaderFromSourceFile(QOpenGLShader::Vertex, vert) &&
        program.addShaderFromSourceFile(QOpenGLShader::Fragment, frag) &&
        program.addShaderFromSourceFile(QOpenGLShader::Fragment, ":/shaders/shading.glsl") &&
        program.addShaderFromSourceFile(QOpenGLShader::Fragment, ":/shaders/colour_map.glsl") &&
        program.link();
    if (!ok && error) *error = std::string(vert) + ": " + program.log().toStdString();
    return ok;
}

bool SceneRenderer::initialize(std::string* error) {
    initializeOpenGLFunctions();
    if (!link(m_sphere, ":/shaders/sphere.vert", ":/shaders/sphere.frag", error) ||
        !link(m_ribbon, ":/shaders/ribbon.vert", ":/shaders/ribbon.frag", error) ||
        !link(m_wall, ":/shaders/wall.vert", ":/shaders/wall.frag", error))
        return false;

    // One quad shared by spheres (corners in [-1, 1]²) and ribbons (x in {0, 1}, y in ±1).
    const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    glGenBuffers(1, &m_quadVbo);
    glBindBuffer(GL_ARRAY_BUFFER, m_quadVbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);

    glGenVertexArrays(1, &m_sphereVao);
    glGenBuffers(1, &m_sphereInstances);
    glGenBuffers(1, &m_sphereColours);
    glBindVertexArray(m_sphereVao);
    glBindBuffer(GL_ARRAY_BUFFER, m_quadVbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, m_sphereInstances);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glVertexAttribDivisor(1, 1);
    glBindBuffer(GL_ARRAY_BUFFER, m_sphereColours);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, nullptr);
    glVertexAttribDivisor(2, 1);

    glGenVertexArrays(1, &m_ribbonVao);
    glGenBuffers(1, &m_ribbonInstances);
    glBindVertexArray(m_ribbonVao);
    glBindBuffer(GL_ARRAY_BUFFER, m_quadVbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, m_ribbonInstances);
    const GLsizei stride = 7 * sizeof(float);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glVertexAttribDivisor(1, 1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(3 * sizeof(float)));
    glVertexAttribDivisor(2, 1);
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(6 * sizeof(float)));
    glVertexAttribDivisor(3, 1);
    glBindVertexArray(0);
    m_ready = true;
    return true;
}

void SceneRenderer::release() {
    if (!m_ready) return;
    for (WallDraw& w : m_walls) {
        glDeleteVertexArrays(1, &w.vao);
        glDeleteBuffers(1, &w.vbo);
    }
    m_walls.clear();
    for (SensorDraw& d : m_sensorMeshes) {
        if (d.vao == 0) continue;
        glDeleteVertexArrays(1, &d.vao);
        glDeleteBuffers(1, &d.vbo);
        d = SensorDraw{};
    }
    const unsigned buffers[] = {m_quadVbo, m_sphereInstances, m_sphereColours, m_ribbonInstances};
    glDeleteBuffers(4, buffers);
    const unsigned arrays[] = {m_sphereVao, m_ribbonVao};
    glDeleteVertexArrays(2, arrays);
    m_ready = false;
}

void SceneRenderer::setWalls(const std::vector<Wall>& walls,
                             const std::vector<TriangleMesh>& meshes, const glm::vec3& lo,
                             const glm::vec3& hi) {
    for (WallDraw& w : m_walls) {
        glDeleteVertexArrays(1, &w.vao);
        glDeleteBuffers(1, &w.vbo);
    }
    m_walls.clear();
    for (const Wall& wall : walls) {
        const WallMesh mesh = buildWallMesh(wall, meshes, lo, hi);
        WallDraw d;
        d.vertices = static_cast<int>(mesh.triangles.size());
        d.translucent = mesh.translucent;
        glGenVertexArrays(1, &d.vao);
        glGenBuffers(1, &d.vbo);
        glBindVertexArray(d.vao);
        glBindBuffer(GL_ARRAY_BUFFER, d.vbo);
        glBufferData(GL_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(mesh.triangles.size() * sizeof(glm::vec3)),
                     mesh.triangles.data(), GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
        m_walls.push_back(d);
    }
    glBindVertexArray(0);
}

void SceneRenderer::upload(const Snapshot& s, RenderOptions& options) {
    const size_t n = s.particleCount();
    m_staging.resize(4 * n);
    for (size_t i = 0; i < n; ++i) {
        std::copy_n(&s.position[3 * i], 3, &m_staging[4 * i]);
        m_staging[4 * i + 3] = s.radius[i];
    }
    glBindBuffer(GL_ARRAY_BUFFER, m_sphereInstances);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_staging.size() * sizeof(float)),
                 m_staging.data(), GL_STREAM_DRAW);
    computeColours(s, options.colourMode, options.autoRange, options.range, m_colours);
    if (options.showAggregates) markAggregates(s, m_colours, options.range.scalar);
    glBindBuffer(GL_ARRAY_BUFFER, m_sphereColours);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_colours.size() * 4), m_colours.data(),
                 GL_STREAM_DRAW);
    m_particleCount = static_cast<int>(n);

    const size_t e = s.edgeCount();
    m_staging.resize(7 * e);
    double sum = 0.0;
    for (size_t k = 0; k < e; ++k) {
        std::copy_n(&s.contactEnds[6 * k], 6, &m_staging[7 * k]);
        m_staging[7 * k + 6] = s.contactForce[k];
        sum += s.contactForce[k];
    }
    m_meanForce = e ? static_cast<float>(sum / static_cast<double>(e)) : 0.0f;
    m_maxForce = s.maxContactForce;
    glBindBuffer(GL_ARRAY_BUFFER, m_ribbonInstances);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_staging.size() * sizeof(float)),
                 m_staging.data(), GL_STREAM_DRAW);
    m_edgeCount = static_cast<int>(e);
}

void SceneRenderer::setClip(QOpenGLShaderProgram& program, const RenderOptions& o) {
    program.setUniformValue("clipOn", o.clip);
    program.setUniformValue("clipPlane", o.clipPlane.x, o.clipPlane.y, o.clipPlane.z,
                            o.clipPlane.w);
}

void SceneRenderer::drawWalls(const Snapshot& s, const glm::mat4& view, const glm::mat4& proj,
                              const RenderOptions& o, bool translucent) {
    m_wall.bind();
    glUniformMatrix4fv(m_wall.uniformLocation("view"), 1, GL_FALSE, glm::value_ptr(view));
    glUniformMatrix4fv(m_wall.uniformLocation("proj"), 1, GL_FALSE, glm::value_ptr(proj));
    setClip(m_wall, o);
    const size_t count = std::min(m_walls.size(), s.walls.size());
    for (size_t k = 0; k < count; ++k) {
        const WallDraw& d = m_walls[k];
        const Wall& w = s.walls[k];
        if (d.translucent != translucent || !w.enabled || d.vertices == 0) continue;
        const glm::mat4 model = wallModel(w);
        const glm::vec4 c = wallColour(w, translucent);
        glUniformMatrix4fv(m_wall.uniformLocation("model"), 1, GL_FALSE, glm::value_ptr(model));
        m_wall.setUniformValue("colour", c.r, c.g, c.b, c.a);
        glBindVertexArray(d.vao);
        glDrawArrays(GL_TRIANGLES, 0, d.vertices);
    }
}

void SceneRenderer::drawSensors(const Snapshot& s, const glm::mat4& view, const glm::mat4& proj,
                                const RenderOptions& o) {
    m_wall.bind();
    glUniformMatrix4fv(m_wall.uniformLocation("view"), 1, GL_FALSE, glm::value_ptr(view));
    glUniformMatrix4fv(m_wall.uniformLocation("proj"), 1, GL_FALSE, glm::value_ptr(proj));
    m_wall.setUniformValue("clipOn", false);
    for (size_t k = 0; k < s.sensors.size(); ++k) {
        const SplitSensor& sensor = s.sensors[k];
        SensorDraw& d = m_sensorMeshes[static_cast<int>(sensor.shape)];
        if (d.vao == 0) {
            const std::vector<glm::vec3> mesh = unitSensorMesh(sensor.shape);
            glGenVertexArrays(1, &d.vao);
            glGenBuffers(1, &d.vbo);
            glBindVertexArray(d.vao);
            glBindBuffer(GL_ARRAY_BUFFER, d.vbo);
            glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.size() * sizeof(glm::vec3)),
                         mesh.data(), GL_STATIC_DRAW);
            glEnableVertexAttribArray(0);
            glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
            d.vertices = static_cast<int>(mesh.size());
        }
        const bool selected = static_cast<int>(k) == o.selectedSensor;
        const float alpha = !sensor.enabled ? 0.1f : selected ? 0.5f : 0.32f;
        const glm::mat4 model = sensorModel(sensor);
        glUniformMatrix4fv(m_wall.uniformLocation("model"), 1, GL_FALSE, glm::value_ptr(model));
        m_wall.setUniformValue("colour", 1.0f, selected ? 0.75f : 0.55f, 0.15f, alpha);
        glBindVertexArray(d.vao);
        glDrawArrays(GL_TRIANGLES, 0, d.vertices);
    }
}

void SceneRenderer::draw(const Snapshot& s, const OrbitCamera& camera, int width, int height,
                         const RenderOptions& o) {
    const glm::mat4 view = camera.view();
    const glm::mat4 proj = camera.projection(static_cast<float>(width) / std::max(height, 1));
    glViewport(0, 0, width, height);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);

    if (o.showWalls) drawWalls(s, view, proj, o, false);

    if (o.showParticles && m_particleCount > 0) {
        m_sphere.bind();
        glUniformMatrix4fv(m_sphere.uniformLocation("view"), 1, GL_FALSE, glm::value_ptr(view));
        glUniformMatrix4fv(m_sphere.uniformLocation("proj"), 1, GL_FALSE, glm::value_ptr(proj));
        m_sphere.setUniformValue("radiusScale", o.radiusScale);
        setClip(m_sphere, o);
        glBindVertexArray(m_sphereVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, m_particleCount);
    }

    if (o.showForces && m_edgeCount > 0) {
        m_ribbon.bind();
        glUniformMatrix4fv(m_ribbon.uniformLocation("view"), 1, GL_FALSE, glm::value_ptr(view));
        glUniformMatrix4fv(m_ribbon.uniformLocation("proj"), 1, GL_FALSE, glm::value_ptr(proj));
        // Colour and width saturate at a few times the mean: the maximum is usually one
        // impact and would leave every chain dark.
        const float scale = std::max(3.0f * m_meanForce, 1e-12f);
        m_ribbon.setUniformValue("maxForce", std::min(scale, std::max(m_maxForce, 1e-12f)));
        m_ribbon.setUniformValue("threshold", o.forceThreshold * m_meanForce);
        const float meanRadius = s.radius.empty() ? 0.01f : s.radius[0];
        m_ribbon.setUniformValue("maxWidth", 0.5f * meanRadius);
        setClip(m_ribbon, o);
        glBindVertexArray(m_ribbonVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, m_edgeCount);
    }

    // See-through shells and sensors last, over everything, without writing depth.
    if (o.showWalls || (o.showSensors && !s.sensors.empty())) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        if (o.showWalls) drawWalls(s, view, proj, o, true);
        if (o.showSensors) drawSensors(s, view, proj, o);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
    glBindVertexArray(0);
}

}  // namespace ndem::app
