#pragma once
// The File menu's export and copy actions: Export image (the dialog), Export data (the shown
// stage as CSV or every tensor as .npz), Copy image and Copy as PyTorch code. They read the
// computation's current result and the document's view. GUI thread only.

#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QMainWindow;
class QMenu;

namespace mhaviz::ui {

class Computation;
class Document;

class ExportActions : public QObject {
  Q_OBJECT

 public:
  /// Errors go to `showError(title, message)` (the session document's prompt, which tests
  /// replace so that no dialog blocks).
  using ErrorPrompt = std::function<void(const QString& title, const QString& message)>;

  ExportActions(QMainWindow* window, Document* document, Computation* computation,
                ErrorPrompt showError);

  /// Inserts the four actions into `file` before `before` (at the end when null).
  void addFileActions(QMenu* file, QAction* before);

  /// Copies the current picture (as exported) to the clipboard.
  bool copyImage();
  /// Copies the PyTorch reproduction script; its data file is written to AppDataLocation.
  bool copyTorchCode();
  /// Writes the shown stage as .csv or every tensor as .npz, by the extension of `path`.
  bool exportData(const QString& path);

 private:
  void exportImageDialog();
  void exportDataDialog();

  QMainWindow* m_window;
  Document* m_document;
  Computation* m_computation;
  ErrorPrompt m_showError;
};

}  // namespace mhaviz::ui
