#pragma once
// File > Export image…: the whole grid or one head of any stage as PNG (pixel size and DPI
// scale), SVG or PDF (size in points), with colormap, transparent background and title, all through
// exportImage (the same path as `mhaviz-cli export`); "Export all heads…" writes one file per
// head into a folder. Or, chosen under "Picture", a token view as shown (the window follows the
// view the user worked in last). The suggested file name follows the stage until the user names the
// file; the folder and format of the last export are remembered (QSettings "export/*"). GUI thread
// only.

#include <QDialog>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>

#include "document/computed.hpp"
#include "render/image_export.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace mhaviz::ui {

/// A picture besides the grid that the dialog can write: a token view (head view, text view)
/// as it is shown. The window, which knows them, hands them in.
struct ExportPicture {
  QString name;                 // "Head view", translated
  QString fileBase;             // "head_view": the suggested file name's base
  bool usesHeight = true;       // false: the picture is as tall as its content (the text view)
  std::function<QSize()> size;  // the size it is given when chosen (as large as on screen)
  /// Writes the picture as shown to `path` with `options` (an empty title: the view's own);
  /// empty on success, else the message.
  std::function<QString(const QString& path, const ExportOptions& options)> write;
  /// The size of the file written with `options` (logical pixels or points), which its content
  /// may make taller or wider than options'; empty: options' own.
  std::function<QSize(const ExportOptions& options)> fileSize;
};

class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  /// `result` must be non-null; `view` is the window's current view (its stage is preselected).
  /// `pictures` are offered besides the grid ("Picture:"), `picture` preselected (-1: the grid).
  /// `measures`: the result's (held beside it; null: none), for the stages drawn from them.
  ExportDialog(ResultPtr result, const ViewOptions& view, QWidget* parent = nullptr,
               QList<ExportPicture> pictures = {}, int picture = -1,
               std::shared_ptr<const mhaviz::ResultMeasures> measures = nullptr);

  /// The picture exported: -1 for the grid, else an index into the pictures handed in.
  [[nodiscard]] int picture() const;
  void setPicture(int picture);
  /// The picture box and the size boxes (tests reach them here).
  [[nodiscard]] QComboBox* pictureBox() const { return m_picture; }
  [[nodiscard]] QSpinBox* widthBox() const { return m_width; }
  [[nodiscard]] QSpinBox* heightBox() const { return m_height; }

  /// The view the export draws: chosen stage, head (or all), colormap.
  [[nodiscard]] ViewOptions exportView() const;
  [[nodiscard]] ExportOptions exportOptions() const;
  /// "png", "svg" or "pdf".
  [[nodiscard]] QString extension() const;
  /// The title used when the title field is empty: describeConfig + stage.
  [[nodiscard]] QString defaultTitle() const;

  void setStage(Stage stage);
  void setHead(int head);  // -1: whole grid
  void setFormat(const QString& extension);
  void setPixelSize(int width, int height);
  void setScale(double scale);
  /// The file name the dialog suggests for the current stage, head, batch and format.
  [[nodiscard]] QString suggestedFileName() const;
  /// The size of the file Export writes (logical pixels or points): the picture's own where
  /// its content decides it (a token view's height), else the fields'.
  [[nodiscard]] QSize fileSize() const;
  /// The unit of the size fields: "px" for PNG, "pt" for SVG and PDF (translated).
  [[nodiscard]] QString sizeUnit() const;
  /// The file path in the dialog.
  [[nodiscard]] QString path() const;
  void setPath(const QString& path);  // as if the user typed or browsed it

  /// Exports with the current settings; returns an empty string or the error.
  QString exportTo(const QString& path);
  /// One file per head into `folder`; returns the files written, or sets `error`.
  QStringList exportAllHeadsTo(const QString& folder, QString* error);

 private:
  void browse();
  void exportClicked();
  void exportAllClicked();
  void updateControls();
  void remember(const QString& folder) const;  // QSettings: folder and format of an export

  ResultPtr m_result;
  std::shared_ptr<const mhaviz::ResultMeasures> m_measures;  // of m_result
  ViewOptions m_view;
  QList<ExportPicture> m_pictures;
  QComboBox* m_picture;
  QComboBox* m_scope;
  QComboBox* m_stage;
  QComboBox* m_format;
  QSpinBox* m_width;
  QSpinBox* m_height;
  QDoubleSpinBox* m_scale;
  QLabel* m_sizeLabel;
  QLabel* m_pixels;
  QComboBox* m_colormap;
  QCheckBox* m_transparent;
  QLineEdit* m_title;
  QLineEdit* m_path;
  QPushButton* m_allButton = nullptr;
  bool m_userNamed = false;  // the user typed or browsed a name of their own
};

}  // namespace mhaviz::ui
