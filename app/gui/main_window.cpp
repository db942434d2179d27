#include "gui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ndem::app {

namespace {

const char* const kShortcuts =
    "Mouse: left drag orbit, right / middle / Shift+left drag pan, wheel zoom, click a particle "
    "to inspect it, left drag a split sensor to move it (hold X, Y or Z: along that axis), Del "
    "deletes the selected sensor.\n"
    "Space play / pause, N single step, F fit the scene, C next colour mode, G force network, "
    "K clip plane.\nCtrl+O open scene, Ctrl+R reset, Ctrl+P screenshot, Ctrl+Shift+R start / "
    "stop video, Ctrl+Q quit.";

bool unattended(const StudioOptions& o) {
    return !o.screenshot.empty() || !o.record.empty();
}

}  // namespace

MainWindow::MainWindow(const StudioOptions& options)
    : m_options(options), m_session([this] {
          if (m_viewport) m_viewport->notifyPublished();
      }) {
    setWindowTitle("NDEM Studio");
    resize(options.width, options.height);
    m_viewport = new Viewport(m_session, this);
    setCentralWidget(m_viewport);
    buildMenus();
    const char* names[] = {"t",        "steps/s",    "real time", "particles",
                           "contacts", "iterations", "residual"};
    for (int k = 0; k < 7; ++k) {
        m_status[k] = new QLabel(QString(names[k]) + " –", this);
        statusBar()->addWidget(m_status[k], 1);
    }
    m_statusClock.start();
    connect(m_viewport, &Viewport::frameDrawn, this, &MainWindow::onFrame);
    connect(m_viewport, &Viewport::message, this, [this](const QString& t) { fail(t); });
    connect(m_viewport, &Viewport::recordingFinished, this,
            [this](const QString& path, const QString& error) {
                if (m_recordAction) m_recordAction->setText("Start &video…");
                m_viewport->setPanelsVisible(true);
                if (!error.isEmpty()) {
                    fail("video " + path + ": " + error);
                } else {
                    statusBar()->showMessage("video saved: " + path, 8000);
                    if (!m_options.record.empty())
                        std::printf("ndem-studio: video written to %s (%dx%d, %ld frames)\n",
                                    qPrintable(path), m_viewport->recorder().width(),
                                    m_viewport->recorder().height(),
                                    m_viewport->recorder().framesCaptured());
                    std::fflush(stdout);
                }
                if (!m_options.record.empty()) {
                    m_unattendedDone = true;
                    QTimer::singleShot(0, qApp, &QApplication::quit);
                }
            });
    RenderOptions& render = m_viewport->renderOptions();
    render.showForces = options.forces;
    if (options.forces) render.radiusScale = 0.35f;
    render.clip = options.clip;
    for (size_t k = 0; k < kColourModeKeys.size(); ++k)
        if (options.colour == kColourModeKeys[k]) render.colourMode = static_cast<ColourMode>(k);
    if (!m_options.plotsOpen.empty()) {
        PanelState& p = m_viewport->panels();
        const std::string& n = m_options.plotsOpen;
        p.simulation |= n == "simulation";
        p.solver |= n == "solver";
        p.material |= n == "material";
        p.scene |= n == "scene";
        p.plots |= n == "plots";
        p.display |= n == "display";
        p.reduction |= n == "reduction";
    }
}

MainWindow::~MainWindow() {
    // The sim thread calls back into the viewport; it ends before the widgets go.
    if (m_session.hasScene()) m_session.loop().stop();
}

bool MainWindow::openScene(const QString& path, const std::vector<Override>& overrides) {
    if (auto e = m_session.open(path.toStdString(), overrides)) {
        fail(QString::fromStdString(*e));
        return false;
    }
    setWindowTitle("NDEM Studio – " + QFileInfo(path).fileName());
    addRecent(QFileInfo(path).absoluteFilePath());
    // A video starts the sim itself, paced to its frames.
    if (!m_options.paused && m_options.record.empty()) m_session.loop().play();
    return true;
}

void MainWindow::fail(const QString& text) {
    if (unattended(m_options) || !isVisible()) {
        std::fprintf(stderr, "ndem-studio: %s\n", qPrintable(text));
        m_exitCode = 1;
        if (unattended(m_options)) QTimer::singleShot(0, qApp, &QApplication::quit);
        return;
    }
    QMessageBox::warning(this, "NDEM Studio", text);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open scene…", QKeySequence::Open, this, &MainWindow::openDialog);
    QMenu* shipped = file->addMenu("Scenes");
    const QDir assets(QString(NDEM_ASSETS_DIR) + "/scenes");
    for (const QString& f : assets.entryList({"*.json"}, QDir::Files, QDir::Name)) {
        const QString full = assets.filePath(f);
        shipped->addAction(f, this, [this, full] { openScene(full); });
    }
    m_recentMenu = file->addMenu("Recent scenes");
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction("&Reset", QKeySequence("Ctrl+R"), this, [this] {
        if (auto e = m_session.reset()) fail(QString::fromStdString(*e));
    });
    file->addAction("&Save state…", QKeySequence::Save, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Save state (checkpoint)",
                                                          "state.h5", "Checkpoint (*.h5)");
        if (!path.isEmpty()) m_session.saveState(path.toStdString());
    });
    file->addAction("&Load state…", this, &MainWindow::openDialog);
    file->addAction("Export &VTK…", this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, "Export VTK into");
        if (!dir.isEmpty()) m_session.exportVtk(dir.toStdString());
    });
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu("&View");
    view->addAction("&Fit scene", QKeySequence("F"), m_viewport, &Viewport::fitScene);
    QMenu* colours = view->addMenu("&Colour mode");
    for (size_t k = 0; k < kColourModeNames.size(); ++k)
        colours->addAction(kColourModeNames[k], this, [this, k] {
            m_viewport->renderOptions().colourMode = static_cast<ColourMode>(k);
            m_viewport->update();
        });
    auto toggle = [&](const char* name, bool RenderOptions::*field) {
        QAction* a = view->addAction(name);
        a->setCheckable(true);
        a->setChecked(m_viewport->renderOptions().*field);
        connect(a, &QAction::toggled, this, [this, field](bool on) {
            m_viewport->renderOptions().*field = on;
            m_viewport->update();
        });
    };
    toggle("Clip plane", &RenderOptions::clip);
    toggle("Walls", &RenderOptions::showWalls);
    toggle("Force network", &RenderOptions::showForces);
    toggle("Particles", &RenderOptions::showParticles);
    QMenu* panels = view->addMenu("&Panels");
    auto panel = [&](const char* name, bool PanelState::*field) {
        panels->addAction(name, this, [this, field] {
            m_viewport->panels().*field = true;
            m_viewport->update();
        });
    };
    panel("Simulation", &PanelState::simulation);
    panel("Solver", &PanelState::solver);
    panel("Material", &PanelState::material);
    panel("Scene", &PanelState::scene);
    panel("Display", &PanelState::display);
    panel("Plots", &PanelState::plots);
    panel("Model reduction", &PanelState::reduction);

    QMenu* record = menuBar()->addMenu("&Record");
    record->addAction("&Screenshot…", QKeySequence("Ctrl+P"), this, &MainWindow::screenshotDialog);
    m_recordAction = record->addAction("Start &video…", QKeySequence("Ctrl+Shift+R"), this,
                                       &MainWindow::toggleRecording);

    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&Keyboard shortcuts", this,
                    [this] { QMessageBox::information(this, "Keyboard shortcuts", kShortcuts); });
    help->addAction("&About", this, [this] {
        QMessageBox::about(this, "About NDEM Studio",
                           "NDEM Studio " NDEM_STUDIO_VERSION
                           "\nNonsmooth discrete element "
                           "simulation of granular matter: semi-smooth SPOOK, nonsmooth and smooth "
                           "DEM, with the test systems of the papers it implements.");
    });
}

void MainWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, "Open scene or state", QString(NDEM_ASSETS_DIR) + "/scenes",
        "Scenes and checkpoints (*.json *.h5);;Scenes (*.json);;Checkpoints (*.h5)");
    if (!path.isEmpty()) openScene(path);
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings("NDEM", "NDEM Studio");
    QStringList recent = settings.value("recentScenes").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 10)
        recent.removeLast();
    settings.setValue("recentScenes", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList recent =
        QSettings("NDEM", "NDEM Studio").value("recentScenes").toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openScene(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::screenshotDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, "Save screenshot", "ndem.png", "PNG (*.png)");
    if (path.isEmpty()) return;
    if (!m_viewport->grabFramebuffer().save(path, "PNG"))
        fail("screenshot: cannot write " + path);
    else
        statusBar()->showMessage("screenshot saved: " + path, 8000);
}

void MainWindow::toggleRecording() {
    if (m_viewport->recording()) {
        m_viewport->stopRecording();
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(this, "Record video", "ndem.mp4", "MP4 video (*.mp4)");
    if (path.isEmpty()) return;
    if (auto e = m_viewport->startRecording(path.toStdString(), m_options.videoFps, 0.0, false))
        fail(QString::fromStdString(*e));
    else
        m_recordAction->setText("Stop &video");
}

void MainWindow::onFrame() {
    updateStatus();
    if (m_unattendedDone || !m_session.hasScene()) return;
    Viewport& v = *m_viewport;
    if (!m_options.screenshot.empty() &&
        v.framesDrawn() >= static_cast<std::uint64_t>(m_options.frames)) {
        m_unattendedDone = true;
        const QString path = QString::fromStdString(m_options.screenshot);
        QImage image = v.grabFramebuffer();
        if (image.isNull() || !image.save(path, "PNG")) {
            fail("screenshot: cannot write " + path);
        } else {
            std::printf(
                "ndem-studio: screenshot %s after %llu frames, %llu snapshots, t = %.4f s\n",
                qPrintable(path), static_cast<unsigned long long>(v.framesDrawn()),
                static_cast<unsigned long long>(v.snapshotsSeen()), v.snapshot()->time);
            std::fflush(stdout);
        }
        if (m_options.timing) printFrameTimes();
        QTimer::singleShot(0, qApp, &QApplication::quit);
        return;
    }
    // Keep drawing frames in the unattended screenshot mode even when the sim is paused.
    if (!m_options.screenshot.empty()) v.update();
    if (!m_options.record.empty() && !v.recording() && v.framesDrawn() >= 2) {
        if (!m_options.withPanels) v.setPanelsVisible(false);
        if (auto e = v.startRecording(m_options.record, m_options.videoFps, m_options.simSeconds,
                                      m_options.withPanels)) {
            m_unattendedDone = true;
            fail(QString::fromStdString(*e));
        }
    }
}

void MainWindow::printFrameTimes() const {
    // The first frames compile shaders and build the font atlas: leave out the first fifth.
    std::vector<float> ms = m_viewport->frameIntervals();
    ms.erase(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 5));
    if (ms.empty()) return;
    double sum = 0.0;
    for (float x : ms)
        sum += x;
    std::sort(ms.begin(), ms.end());
    std::printf(
        "ndem-studio: frame time mean %.1f ms, p95 %.1f ms over %zu frames, %zu particles\n",
        sum / static_cast<double>(ms.size()), ms[ms.size() * 95 / 100], ms.size(),
        m_viewport->snapshot() ? m_viewport->snapshot()->particleCount() : 0);
}

void MainWindow::updateStatus() {
    const qint64 now = m_statusClock.nsecsElapsed();
    if (now - m_lastStatusNs < 250'000'000 || !m_viewport->snapshot()) return;
    const Snapshot& s = *m_viewport->snapshot();
    const double wall = (now - m_lastStatusNs) * 1e-9;
    const double stepsPerSecond = (s.stepCount - m_lastStatusSteps) / wall;
    const double realTime = (s.time - m_lastStatusSimTime) / wall;
    m_lastStatusNs = now;
    m_lastStatusSteps = s.stepCount;
    m_lastStatusSimTime = s.time;
    m_status[0]->setText(QString("t = %1 s").arg(s.time, 0, 'f', 3));
    m_status[1]->setText(QString("%1 steps/s").arg(std::max(0.0, stepsPerSecond), 0, 'f', 1));
    m_status[2]->setText(QString("%1× real time").arg(std::max(0.0, realTime), 0, 'g', 3));
    m_status[3]->setText(QString("%1 particles").arg(s.particleCount()));
    m_status[4]->setText(QString("%1 contacts").arg(s.stats.contacts));
    m_status[5]->setText(QString("%1 iterations").arg(s.stats.iterations));
    m_status[6]->setText(QString("residual %1 m/s").arg(s.stats.residual, 0, 'g', 3));
    showGuardMessages(s);
}

void MainWindow::showGuardMessages(const Snapshot& s) {
    // A warning for 20 s; a divergence until the next message (the world no longer steps).
    for (const std::string& text : m_guardMessages.take(s))
        statusBar()->showMessage(QString::fromStdString(text),
                                 text.rfind("stopped", 0) == 0 ? 0 : 20000);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // A video in progress is finalised so the file plays.
    m_viewport->stopRecording();
    QMainWindow::closeEvent(event);
}

}  // namespace ndem::app
