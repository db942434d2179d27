#include "test_util.hpp"

namespace ndem::test {

World makeWorld(const Scene& scene) {
    auto world = World::create(scene);
    if (!world) ADD_FAILURE() << world.error().message;
    return world ? std::move(world.value()) : World{};
}

Wall plane(const std::string& name, const Vec3& at, const Vec3& normal) {
    Wall w;
    w.name = name;
    w.shape = WallShape::Plane;
    w.position = at;
    w.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), normal);
    return w;
}

void smoothWallsBut(Scene& scene, const std::string& keep) {
    Material smooth = scene.materials[0];
    smooth.name = "smooth";
    scene.materials.push_back(smooth);
    ContactMaterialOverride pair;
    pair.first = scene.materials[0].name;
    pair.second = "smooth";
    pair.friction = 0.0;
    scene.contactMaterials.push_back(pair);
    for (Wall& w : scene.walls)
        if (w.name != keep) w.material = static_cast<MaterialId>(scene.materials.size() - 1);
}

}  // namespace ndem::test
