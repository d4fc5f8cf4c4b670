#pragma once
// The status bar's contents: the batch element shown, an out-of-date note, compute time, render
// time, result memory, hover text, and a progress bar with a Cancel button shown while a
// computation takes long. GUI thread only.

#include <QObject>
#include <QTimer>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace mhaviz::ui {

class Computation;
class Document;

class StatusWidgets : public QObject {
  Q_OBJECT

 public:
  /// Adds its widgets to `bar` (which owns them). The Cancel button cancels `computation`.
  StatusWidgets(QStatusBar* bar, Document* document, Computation* computation,
                QObject* parent = nullptr);

  void showTimes(double computeMs, double renderMs, std::size_t resultBytes);
  void showHover(const QString& text);
  /// A passing message in the bar (until the next one).
  void showMessage(const QString& text);
  /// Milliseconds a computation runs before the progress bar and Cancel button appear.
  void setProgressDelay(int ms) { m_delay.setInterval(ms); }
  [[nodiscard]] QPushButton* cancelButton() const { return m_cancel; }
  [[nodiscard]] QProgressBar* progressBar() const { return m_progress; }
  /// What the pointer is over (the cell, token or line and its value).
  [[nodiscard]] QLabel* hoverLine() const { return m_hover; }
  /// Which batch element the maps show (shown while N > 1).
  [[nodiscard]] QLabel* batchLine() const { return m_batch; }
  /// The red note while the picture shows earlier settings.
  [[nodiscard]] QLabel* outOfDateLine() const { return m_outOfDate; }

 private:
  /// While the computation is busy: "computing…", then (after a delay) progress and Cancel.
  void showBusy();
  /// The picture shows earlier settings: a red note in the status bar (it covers no map). When
  /// the reason is the panel's error it is not repeated (it is the note's tooltip).
  void showOutOfDate();

  Document* m_document;
  QStatusBar* m_bar;
  QLabel* m_hover;
  QLabel* m_compute;
  QLabel* m_render;
  QLabel* m_memory;
  QLabel* m_outOfDate;
  QLabel* m_batch;    // which batch element the maps show (N > 1)
  QLabel* m_reduced;  // "reduced: block mean of 16x16 cells" when the maps are reduced
  QProgressBar* m_progress;
  QPushButton* m_cancel;
  QTimer m_delay;  // single shot: avoids flashing the progress bar for quick computations
};

/// "12.3 ms", "1.25 s".
QString formatMs(double ms);

}  // namespace mhaviz::ui
