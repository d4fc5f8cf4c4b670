#pragma once
// File > Export image…: the whole grid or one head of any stage as PNG (pixel size and DPI
// scale), SVG or PDF, with colormap, transparent background and title, all through
// exportImage (the same path as `mhaviz-cli export`); "Export all heads…" writes one file per
// head into a folder. GUI thread only.

#include <QDialog>
#include <QString>
#include <QStringList>

#include "compute/compute_request.hpp"
#include "render/image_export.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace mhaviz::ui {

class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  /// `result` must be non-null; `view` is the window's current view (its stage is preselected).
  ExportDialog(ResultPtr result, const ViewOptions& view, QWidget* parent = nullptr);

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

  /// Exports with the current settings; returns an empty string or the error.
  QString exportTo(const QString& path);
  /// One file per head into `folder`; returns the files written, or sets `error`.
  QStringList exportAllHeadsTo(const QString& folder, QString* error);

 private:
  void browse();
  void exportClicked();
  void exportAllClicked();
  void updateControls();

  ResultPtr m_result;
  ViewOptions m_view;
  QComboBox* m_scope;
  QComboBox* m_stage;
  QComboBox* m_format;
  QSpinBox* m_width;
  QSpinBox* m_height;
  QDoubleSpinBox* m_scale;
  QLabel* m_pixels;
  QComboBox* m_colormap;
  QCheckBox* m_transparent;
  QLineEdit* m_title;
  QLineEdit* m_path;
};

}  // namespace mhaviz::ui
