// Draws one snapshot: instanced sphere impostors, the force network as ribbons, and the walls.
#pragma once

#include "render/camera.hpp"
#include "render/colour_modes.hpp"
#include "render/wall_geometry.hpp"
#include "sim/snapshot.hpp"

#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>

#include <glm/glm.hpp>

#include <memory>
#include <vector>

namespace ndem::app {

/// What the View menu and the display panel choose.
struct RenderOptions {
    ColourMode colourMode = ColourMode::Speed;
    bool autoRange = true;
    ColourRange range;         ///< used as given unless autoRange; updated when it is on
    float radiusScale = 1.0f;  ///< drawn radius / true radius
    bool showParticles = true;
    bool showWalls = true;
    bool showForces = false;
    bool showAggregates = true;   ///< aggregate members in one colour per aggregate
    bool showSensors = true;      ///< split sensors, translucent
    int selectedSensor = -1;      ///< drawn brighter
    float forceThreshold = 0.5f;  ///< edges below this fraction of the mean force are hidden
    bool clip = false;
    glm::vec4 clipPlane{0, 1, 0, 0};  ///< world: dot(n, x) + d >= 0 is kept (the far half)
};

/// All GL state of the viewport's scene. Every function needs the widget's context current.
class SceneRenderer : protected QOpenGLExtraFunctions {
  public:
    SceneRenderer() = default;
    ~SceneRenderer();
    SceneRenderer(const SceneRenderer&) = delete;
    SceneRenderer& operator=(const SceneRenderer&) = delete;

    /// Compiles the shaders and makes the buffers; false with a message on failure.
    bool initialize(std::string* error);
    void release();

    /// New scene geometry: the walls' triangles in their local frames.
    void setWalls(const std::vector<Wall>& walls, const std::vector<TriangleMesh>& meshes,
                  const glm::vec3& lo, const glm::vec3& hi);
    /// Uploads particles (colours by `options`) and force edges of a snapshot; only when the
    /// snapshot or the colouring changed.
    void upload(const Snapshot& s, RenderOptions& options);
    /// Draws into the bound framebuffer, walls posed as in `s`.
    void draw(const Snapshot& s, const OrbitCamera& camera, int width, int height,
              const RenderOptions& options);

    /// Mean force of the uploaded edges (N): the scale of the force threshold.
    float meanForce() const { return m_meanForce; }

  private:
    struct WallDraw {
        unsigned vao = 0, vbo = 0;
        int vertices = 0;
        bool translucent = false;
    };
    bool link(QOpenGLShaderProgram& program, const char* vert, const char* frag,
              std::string* error);
    void drawWalls(const Snapshot& s, const glm::mat4& view, const glm::mat4& proj,
                   const RenderOptions& o, bool translucent);
    void setClip(QOpenGLShaderProgram& program, const RenderOptions& o);

    QOpenGLShaderProgram m_sphere, m_ribbon, m_wall;
    struct SensorDraw {
        GLuint vao = 0, vbo = 0;
        int vertices = 0;
    };
    SensorDraw m_sensorMeshes[3];  ///< unit box, sphere, cylinder
    void drawSensors(const Snapshot& s, const glm::mat4& view, const glm::mat4& proj,
                     const RenderOptions& o);
    unsigned m_quadVbo = 0;
    unsigned m_sphereVao = 0, m_sphereInstances = 0, m_sphereColours = 0;
    unsigned m_ribbonVao = 0, m_ribbonInstances = 0;
    int m_particleCount = 0, m_edgeCount = 0;
    float m_meanForce = 0.0f, m_maxForce = 0.0f;
    std::vector<WallDraw> m_walls;
    std::vector<float> m_staging;
    std::vector<std::uint32_t> m_colours;
    bool m_ready = false;
};

}  // namespace ndem::app
