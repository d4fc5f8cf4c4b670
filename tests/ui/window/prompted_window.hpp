#pragma once
// Shared by the window tests that open, save and recover files (test_session_window.cpp,
// test_bad_inputs.cpp): settings kept away from the user's, and a main window whose File
// prompts never block.

#include <QCoreApplication>
#include <QFile>
#include <QStandardPaths>
#include <QStringList>
#include <QtTest>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "render/heatmap_grid.hpp"
#include "session/autosave.hpp"
#include "session/recent_files.hpp"
#include "session/session_files.hpp"
#include "session/unsaved_changes.hpp"
#include "window/main_window.hpp"

namespace mhaviz::ui::testing {

/// Test-mode settings and data folders under the name `application`, with no autosave and no
/// recent files left from an earlier run. Call from initTestCase().
inline void isolateSettings(const char* application) {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
  QCoreApplication::setApplicationName(QString::fromLatin1(application));
  QFile::remove(Autosave::defaultPath());
  storeRecentFiles({});
}

/// Waits until `grid` has the picture of its current data and view: no background preparation
/// runs and the events already posted (a queued re-render after a resize, a layout request, a
/// restyle after a font change) have been delivered. A condition, not a time: false when it
/// does not hold within `timeoutMs`.
inline bool pictureSettled(const HeatmapGrid& grid, int timeoutMs = 30000) {
  // Delivering posted events can post more (a resize posts a layout request, which queues a
  // re-render, which may start a preparation): drain at least three rounds, and until a round
  // leaves nothing to prepare.
  for (int round = 0; round < 8; ++round) {
    if (!QTest::qWaitFor([&grid] { return !grid.isPreparing(); }, timeoutMs)) return false;
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    if (round >= 2 && !grid.isPreparing()) return true;
  }
  return false;
}

/// A main window whose prompts answer from the fields below and record error messages.
struct PromptedWindow {
  MainWindow window;
  UnsavedAnswer answer = UnsavedAnswer::cancel;  // to "save your changes?"
  bool recover = true;                           // to "recover the autosave?"
  int unsavedAsked = 0;
  int recoverAsked = 0;
  QStringList errors;  // messages passed to SessionFiles's error prompt

  PromptedWindow() {
    SessionFiles::Prompts p;
    p.unsaved = [this](const QString&) {
      ++unsavedAsked;
      return answer;
    };
    p.recover = [this](const QDateTime&) {
      ++recoverAsked;
      return recover;
    };
    p.error = [this](const QString&, const QString& message) { errors << message; };
    window.session()->setPrompts(p);
    window.resize(900, 600);
  }
  Document* document() { return window.document(); }
  Computation* computation() { return window.computation(); }
  SessionFiles* session() { return window.session(); }
  /// Waits until no computation runs and a result for the current config is shown.
  bool idle(int timeoutMs = 30000) {
    return QTest::qWaitFor(
        [this] {
          return !document()->computed().busy && !document()->computed().measuring &&
                 document()->computed().result &&
                 document()->computed().result->config == document()->config();
        },
        timeoutMs);
  }
};

}  // namespace mhaviz::ui::testing
