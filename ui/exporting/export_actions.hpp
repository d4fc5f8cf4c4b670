#pragma once
// The File menu's export and copy actions: Export image (the dialog), Export data (the shown
// stage as CSV or every tensor as .npz), Copy image and Copy as PyTorch code. They read the
// document's current result and view; Export image and Copy image follow the
// picture the window says is active (the grid, or a token view handed in). GUI thread only.

#include <QList>
#include <QObject>
#include <QString>
#include <functional>

#include "exporting/export_dialog.hpp"

class QAction;
class QMainWindow;
class QMenu;

namespace mhaviz::ui {

class Document;

class ExportActions : public QObject {
  Q_OBJECT

 public:
  /// Errors go to `showError(title, message)` (the session document's prompt, which tests
  /// replace so that no dialog blocks).
  using ErrorPrompt = std::function<void(const QString& title, const QString& message)>;

  ExportActions(QMainWindow* window, Document* document, ErrorPrompt showError);

  /// Inserts the four actions into `file` before `before` (at the end when null).
  void addFileActions(QMenu* file, QAction* before);

  /// A picture besides the grid (a token view) that Export image and Copy image can write
  /// while `shown()` says it is on screen.
  void addPicture(ExportPicture picture, std::function<bool()> shown);
  /// Which picture Export image and Copy image take by default: -1 the grid, else the index of
  /// a picture added (the window's choice: the view worked in last).
  void setActivePicture(std::function<int()> active) { m_active = std::move(active); }

  /// File > Export image: the dialog, `picture` preselected (-2: the active one).
  void exportImageDialog(int picture = -2);
  /// Copies the active picture (as exported) to the clipboard.
  bool copyImage();
  /// Copies the PyTorch reproduction script; its data file is written to AppDataLocation.
  bool copyTorchCode();
  /// Writes the shown stage as .csv or every tensor as .npz, by the extension of `path`.
  bool exportData(const QString& path);

 private:
  void exportDataDialog();
  [[nodiscard]] int activePicture() const;

  QMainWindow* m_window;
  Document* m_document;
  ErrorPrompt m_showError;
  QList<ExportPicture> m_pictures;
  QList<std::function<bool()>> m_shown;
  std::function<int()> m_active;
};

}  // namespace mhaviz::ui
