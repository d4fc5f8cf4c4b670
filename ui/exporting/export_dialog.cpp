#include "exporting/export_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>
#include <exception>
#include <utility>

#include "exporting/data_export.hpp"
#include "render/colormaps.hpp"

namespace mhaviz::ui {

namespace {
constexpr const char* kFolderKey = "export/folder";  // QSettings: folder of the last export
constexpr const char* kFormatKey = "export/format";  // QSettings: "png", "svg" or "pdf"
// QSettings: the base of a file name the user gave at the last export (empty when the export
// took the suggested name, which then follows the stage and head again).
constexpr const char* kNameKey = "export/name";
}  // namespace

ExportDialog::ExportDialog(ResultPtr result, const ViewOptions& view, QWidget* parent,
                           QList<ExportPicture> pictures, int picture,
                           std::shared_ptr<const mhaviz::ResultMeasures> measures)
    : QDialog(parent),
      m_result(std::move(result)),
      m_measures(std::move(measures)),
      m_view(view),
      m_pictures(std::move(pictures)) {
  setObjectName(QStringLiteral("exportDialog"));
  setWindowTitle(tr("Export image"));
  setMinimumWidth(560);  // room for the default title and the file path
  auto* form = new QFormLayout;

  m_picture = new QComboBox;
  m_picture->setObjectName(QStringLiteral("picture"));
  m_picture->addItem(tr("Heatmap grid"), -1);
  for (int i = 0; i < m_pictures.size(); ++i) m_picture->addItem(m_pictures[i].name, i);
  m_picture->setCurrentIndex(std::max(0, m_picture->findData(picture)));
  m_picture->setToolTip(
      tr("The grid, or a token view exactly as shown (its hovered or pinned "
         "token included)"));
  form->addRow(tr("&Picture:"), m_picture);
  form->setRowVisible(m_picture, !m_pictures.isEmpty());

  m_scope = new QComboBox;
  m_scope->setObjectName(QStringLiteral("scope"));
  m_scope->addItem(tr("Whole grid"), -1);
  for (int h = 0; h < static_cast<int>(m_result->H); ++h) m_scope->addItem(tr("Head %1").arg(h), h);
  m_scope->setCurrentIndex(view.soloHead >= 0 ? view.soloHead + 1 : 0);
  form->addRow(tr("&Show:"), m_scope);

  m_stage = new QComboBox;
  m_stage->setObjectName(QStringLiteral("stage"));
  for (Stage s : allStages()) {
    if (!stageIn(s, *m_result)) continue;
    m_stage->addItem(
        QCoreApplication::translate("mhaviz::ui::Stage", stageName(s).toLatin1().constData()),
        static_cast<int>(s));
  }
  m_stage->setCurrentIndex(std::max(0, m_stage->findData(static_cast<int>(view.stage))));
  form->addRow(tr("S&tage:"), m_stage);

  m_format = new QComboBox;
  m_format->setObjectName(QStringLiteral("format"));
  m_format->addItem(tr("PNG image (pixels)"), QStringLiteral("png"));
  m_format->addItem(tr("SVG image (vector)"), QStringLiteral("svg"));
  m_format->addItem(tr("PDF document (vector)"), QStringLiteral("pdf"));
  form->addRow(tr("&Format:"), m_format);

  m_width = new QSpinBox;
  m_width->setObjectName(QStringLiteral("width"));
  m_width->setRange(200, 20000);
  m_width->setValue(1600);
  m_height = new QSpinBox;
  m_height->setObjectName(QStringLiteral("height"));
  m_height->setRange(150, 20000);
  m_height->setValue(1000);
  auto* size = new QHBoxLayout;
  size->addWidget(m_width);
  size->addWidget(new QLabel(QStringLiteral("×")));
  size->addWidget(m_height);
  m_sizeLabel = new QLabel;
  form->addRow(m_sizeLabel, size);

  m_scale = new QDoubleSpinBox;
  m_scale->setObjectName(QStringLiteral("scale"));
  m_scale->setRange(0.5, 8.0);
  m_scale->setSingleStep(0.5);
  m_scale->setValue(2.0);
  m_scale->setToolTip(
      tr("DPI scale: 2 doubles the PNG's pixels (sharp on slides and print) "
         "without changing the layout."));
  m_pixels = new QLabel;
  auto* scaleRow = new QHBoxLayout;
  scaleRow->addWidget(m_scale);
  scaleRow->addWidget(m_pixels, 1);
  form->addRow(tr("DPI scale:"), scaleRow);

  m_colormap = new QComboBox;
  m_colormap->setObjectName(QStringLiteral("colormap"));
  for (Colormap c : allColormaps()) m_colormap->addItem(colormapName(c), static_cast<int>(c));
  m_colormap->setCurrentIndex(std::max(0, m_colormap->findData(static_cast<int>(view.colormap))));
  form->addRow(tr("&Colormap:"), m_colormap);

  m_transparent = new QCheckBox(tr("Transparent background (PNG, SVG)"));
  m_transparent->setObjectName(QStringLiteral("transparent"));
  form->addRow(QString(), m_transparent);

  m_title = new QLineEdit;
  m_title->setObjectName(QStringLiteral("title"));
  m_title->setClearButtonEnabled(true);
  form->addRow(tr("T&itle:"), m_title);

  m_path = new QLineEdit;
  m_path->setObjectName(QStringLiteral("path"));
  auto* browseButton = new QPushButton(tr("&Browse…"));
  connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(m_path, 1);
  pathRow->addWidget(browseButton);
  form->addRow(tr("File:"), pathRow);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QPushButton* exportButton = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
  exportButton->setDefault(true);
  m_allButton = buttons->addButton(tr("Export &all heads…"), QDialogButtonBox::ActionRole);
  connect(exportButton, &QPushButton::clicked, this, &ExportDialog::exportClicked);
  connect(m_allButton, &QPushButton::clicked, this, &ExportDialog::exportAllClicked);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);

  // A picture chosen brings its size: a token view as large as it is on screen.
  connect(m_picture, &QComboBox::currentIndexChanged, this, [this] {
    const int chosen = this->picture();
    if (chosen < 0) {
      setPixelSize(1600, 1000);
    } else if (m_pictures[chosen].size) {
      const QSize shown = m_pictures[chosen].size();
      setPixelSize(shown.width(), shown.height());
    }
  });
  for (QComboBox* box : {m_picture, m_scope, m_stage, m_format}) {
    connect(box, &QComboBox::currentIndexChanged, this, &ExportDialog::updateControls);
  }
  connect(m_width, &QSpinBox::valueChanged, this, &ExportDialog::updateControls);
  connect(m_height, &QSpinBox::valueChanged, this, &ExportDialog::updateControls);
  connect(m_scale, &QDoubleSpinBox::valueChanged, this, &ExportDialog::updateControls);
  connect(m_path, &QLineEdit::textEdited, this, [this] { m_userNamed = true; });
  // The folder and the format of the last export, if that folder is still there.
  const QSettings settings;
  const QString format = settings.value(QLatin1String(kFormatKey)).toString();
  if (m_format->findData(format) >= 0) setFormat(format);
  QString folder = settings.value(QLatin1String(kFolderKey)).toString();
  if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QDir::homePath();
  const QString name = settings.value(QLatin1String(kNameKey)).toString();
  if (name.isEmpty()) {
    m_path->setText(QDir(folder).filePath(suggestedFileName()));
  } else {
    m_path->setText(QDir(folder).filePath(name + QLatin1Char('.') + extension()));
    m_userNamed = true;
  }
  if (picture >= 0 && picture < m_pictures.size() && m_pictures[picture].size) {
    const QSize shown = m_pictures[picture].size();
    setPixelSize(shown.width(), shown.height());
  }
  updateControls();
}

ViewOptions ExportDialog::exportView() const {
  ViewOptions v = m_view;
  v.stage = static_cast<Stage>(m_stage->currentData().toInt());
  v.soloHead = m_scope->currentData().toInt();
  v.colormap = static_cast<Colormap>(m_colormap->currentData().toInt());
  return v;
}

ExportOptions ExportDialog::exportOptions() const {
  ExportOptions o;
  o.width = m_width->value();
  o.height = m_height->value();
  o.scale = m_scale->value();
  o.transparent = m_transparent->isChecked();
  o.title = m_title->text().trimmed();
  return o;
}

QString ExportDialog::extension() const { return m_format->currentData().toString(); }

int ExportDialog::picture() const { return m_picture->currentData().toInt(); }

void ExportDialog::setPicture(int picture) {
  m_picture->setCurrentIndex(std::max(0, m_picture->findData(picture)));
}

QString ExportDialog::defaultTitle() const {
  if (picture() >= 0) return {};  // the view's own: the configuration and its caption
  const ViewOptions v = exportView();
  QString title =
      tr("%1, %2").arg(describeConfig(m_result->config, v.batch), shownStageName(v.stage));
  if (v.soloHead >= 0) title += tr(", head %1").arg(v.soloHead);
  return title;
}

void ExportDialog::setStage(Stage stage) {
  m_stage->setCurrentIndex(std::max(0, m_stage->findData(static_cast<int>(stage))));
}
void ExportDialog::setHead(int head) {
  m_scope->setCurrentIndex(std::max(0, m_scope->findData(head)));
}
void ExportDialog::setFormat(const QString& extension) {
  m_format->setCurrentIndex(std::max(0, m_format->findData(extension.toLower())));
}
void ExportDialog::setPixelSize(int width, int height) {
  m_width->setValue(width);
  m_height->setValue(height);
}
void ExportDialog::setScale(double scale) { m_scale->setValue(scale); }
QString ExportDialog::path() const { return m_path->text(); }
void ExportDialog::setPath(const QString& path) {
  m_path->setText(path);
  m_userNamed = QFileInfo(path).fileName() != suggestedFileName();
}
QString ExportDialog::suggestedFileName() const {
  if (picture() >= 0) {
    return m_pictures[picture()].fileBase + QStringLiteral("_batch%1.").arg(m_view.batch) +
           extension();
  }
  const ViewOptions v = exportView();
  return headFileName(v.stage, v.soloHead, v.batch, extension());
}

QString ExportDialog::sizeUnit() const {
  return extension() == QLatin1String("png") ? tr("px") : tr("pt");
}

QSize ExportDialog::fileSize() const {
  const ExportOptions options = exportOptions();
  const int chosen = picture();
  if (chosen >= 0 && m_pictures[chosen].fileSize) {
    try {
      return m_pictures[chosen].fileSize(options);
    } catch (const std::exception&) {
      // No picture to write: Export will say why.
    }
  }
  return {options.width, options.height};
}

void ExportDialog::updateControls() {
  const bool png = extension() == QLatin1String("png");
  m_scale->setEnabled(png);
  // One unit for the fields and the note: logical pixels for PNG (times the DPI scale gives
  // the file's pixels), points (1/72 inch) for SVG and PDF, whose page is that size.
  const QString suffix = QLatin1Char(' ') + sizeUnit();
  m_width->setSuffix(suffix);
  m_height->setSuffix(suffix);
  m_sizeLabel->setText(png ? tr("Size (px):") : tr("Size (pt):"));
  // What the file will be, which a token view's content may make taller or wider.
  const QSize file = fileSize();
  m_pixels->setText(png ? tr("→ %1 × %2 px in the file")
                              .arg(std::lround(file.width() * m_scale->value()))
                              .arg(std::lround(file.height() * m_scale->value()))
                        : tr("vector: %1 × %2 pt = %3 × %4 cm")
                              .arg(file.width())
                              .arg(file.height())
                              .arg(file.width() * 2.54 / 72.0, 0, 'f', 1)
                              .arg(file.height() * 2.54 / 72.0, 0, 'f', 1));
  m_transparent->setEnabled(extension() != QLatin1String("pdf"));
  // A token view is exported as shown: its head, stage and colours are the view's own.
  const bool grid = picture() < 0;
  for (QWidget* only : {static_cast<QWidget*>(m_scope), static_cast<QWidget*>(m_stage),
                        static_cast<QWidget*>(m_colormap), static_cast<QWidget*>(m_allButton)}) {
    only->setEnabled(grid);
  }
  m_height->setEnabled(grid || m_pictures[picture()].usesHeight);
  m_title->setPlaceholderText(grid ? defaultTitle()
                                   : tr("the configuration and what the view shows"));
  // The suggested name follows the stage, the head and the format until the user names the
  // file; a name of their own keeps its base and only follows the format's extension.
  const QFileInfo info(m_path->text());
  if (!m_userNamed && !m_path->text().isEmpty()) {
    m_path->setText(info.dir().filePath(suggestedFileName()));
  } else if (!m_path->text().isEmpty() && info.suffix().toLower() != extension()) {
    m_path->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + extension()));
  }
}

QString ExportDialog::exportTo(const QString& path) {
  ExportOptions o = exportOptions();
  if (o.title.isEmpty()) o.title = defaultTitle();
  const QString error = picture() >= 0
                            ? m_pictures[picture()].write(path, o)
                            : exportImage(*m_result, exportView(), o, path, m_measures.get());
  if (error.isEmpty()) remember(QFileInfo(path).absolutePath());
  return error;
}

void ExportDialog::remember(const QString& folder) const {
  QSettings settings;
  settings.setValue(QLatin1String(kFolderKey), folder);
  settings.setValue(QLatin1String(kFormatKey), extension());
  settings.setValue(QLatin1String(kNameKey),
                    m_userNamed ? QFileInfo(m_path->text()).completeBaseName() : QString());
}

QStringList ExportDialog::exportAllHeadsTo(const QString& folder, QString* error) {
  try {
    QStringList files = exportAllHeads(*m_result, exportView(), exportOptions(), folder,
                                       extension(), m_measures.get());
    remember(QFileInfo(folder).absoluteFilePath());
    return files;
  } catch (const std::exception& e) {
    if (error != nullptr) *error = QString::fromUtf8(e.what());
    return {};
  }
}

void ExportDialog::browse() {
  const QString filter = extension() == QLatin1String("png")   ? tr("PNG image (*.png)")
                         : extension() == QLatin1String("svg") ? tr("SVG image (*.svg)")
                                                               : tr("PDF document (*.pdf)");
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export image"), m_path->text(), filter);
  if (!path.isEmpty()) setPath(path);
}

void ExportDialog::exportClicked() {
  const QString path = m_path->text().trimmed();
  if (path.isEmpty()) {
    browse();
    if (m_path->text().trimmed().isEmpty()) return;
  }
  const QString error = exportTo(m_path->text().trimmed());
  if (!error.isEmpty()) {
    QMessageBox::warning(this, tr("Export image"), error);
    return;
  }
  accept();
}

void ExportDialog::exportAllClicked() {
  const QString folder = QFileDialog::getExistingDirectory(
      this, tr("Export all heads to folder"), QFileInfo(m_path->text()).absolutePath());
  if (folder.isEmpty()) return;
  QString error;
  const QStringList files = exportAllHeadsTo(folder, &error);
  if (!error.isEmpty()) {
    QMessageBox::warning(this, tr("Export all heads"), error);
    return;
  }
  QMessageBox::information(this, tr("Export all heads"),
                           tr("Wrote %n file(s) to %1.", nullptr, static_cast<int>(files.size()))
                               .arg(QDir::toNativeSeparators(folder)));
  accept();
}

}  // namespace mhaviz::ui
