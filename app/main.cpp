// Placeholder for the desktop app (Qt 6 + OpenGL + Dear ImGui arrive with the app issue).
#include <cstdio>

int main() {
    std::puts("ndem-studio: the desktop app is not built yet; run the headless engine with\n"
              "  ndem run assets/scenes/silo.json");
    return 0;
}
