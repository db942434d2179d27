// The NDEM Studio window: menus, the viewport, the status bar, and the unattended CLI modes.
#pragma once

#include "gui/guard_messages.hpp"
#include "gui/session.hpp"
#include "gui/studio_options.hpp"
#include "gui/viewport.hpp"

#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>

#include <memory>

namespace ndem::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(const StudioOptions& options);
    ~MainWindow() override;

    /// Opens a scene; on error shows it (dialog, or stderr in the unattended modes) and keeps
    /// what was open.
    bool openScene(const QString& path, const std::vector<Override>& overrides = {});
    Viewport& viewport() { return *m_viewport; }
    Session& session() { return m_session; }
    /// Exit code the unattended modes leave for main(): 0 success, 1 failure.
    int exitCode() const { return m_exitCode; }

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildMenus();
    void updateStatus();
    /// The divergence guards' warnings (once each) and a divergence, in the status bar.
    void showGuardMessages(const Snapshot& s);
    void printFrameTimes() const;
    void onFrame();
    void fail(const QString& text);
    void openDialog();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void screenshotDialog();
    void toggleRecording();

    StudioOptions m_options;
    Session m_session;
    Viewport* m_viewport = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_recordAction = nullptr;
    QLabel* m_status[7] = {};
    QElapsedTimer m_statusClock;
    qint64 m_lastStatusNs = 0;
    double m_lastStatusSimTime = 0.0;
    GuardMessages m_guardMessages;  ///< the divergence guards' messages not shown yet
    long long m_lastStatusSteps = 0;
    int m_exitCode = 0;
    bool m_unattendedDone = false;
};

}  // namespace ndem::app
