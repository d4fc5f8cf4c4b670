#include "exporting/export_actions.hpp"

#include <QAction>
#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <exception>
#include <string>
#include <utility>

#include "compute/compute_worker.hpp"
#include "document/document.hpp"
#include "exporting/data_export.hpp"
#include "exporting/export_dialog.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/script/torch_script.hpp"
#include "mhaviz/core/version.hpp"
#include "render/image_export.hpp"

namespace mhaviz::ui {

ExportActions::ExportActions(QMainWindow* window, Document* document, ErrorPrompt showError)
    : QObject(window), m_window(window), m_document(document), m_showError(std::move(showError)) {}

void ExportActions::addFileActions(QMenu* file, QAction* before) {
  const auto add = [&](const QString& text, auto slot, const QKeySequence& keys = {}) {
    auto* a = new QAction(text, file);
    a->setShortcut(keys);
    connect(a, &QAction::triggered, this, slot);
    file->insertAction(before, a);
  };
  add(
      tr("&Export image…"), [this] { exportImageDialog(); }, QKeySequence(tr("Ctrl+E")));
  add(tr("Export &data…"), [this] { exportDataDialog(); });
  add(
      tr("&Copy image"), [this] { copyImage(); }, QKeySequence(tr("Ctrl+Shift+C")));
  add(tr("Copy as &PyTorch code"), [this] { copyTorchCode(); });
  file->insertSeparator(before);
}

void ExportActions::addPicture(ExportPicture picture, std::function<bool()> shown) {
  m_pictures << std::move(picture);
  m_shown << std::move(shown);
}

int ExportActions::activePicture() const {
  const int active = m_active ? m_active() : -1;
  return active >= 0 && active < m_pictures.size() && m_shown[active]() ? active : -1;
}

void ExportActions::exportImageDialog(int picture) {
  const ResultPtr result = m_document->computed().result;
  if (!result) {
    m_showError(tr("Export image"), tr("There is no picture to export yet."));
    return;
  }
  // The token views on screen, the one asked for (or the active one) preselected.
  QList<ExportPicture> shown;
  int chosen = -1;
  const int wanted = picture == -2 ? activePicture() : picture;
  for (int i = 0; i < m_pictures.size(); ++i) {
    if (!m_shown[i]()) continue;
    if (i == wanted) chosen = static_cast<int>(shown.size());
    shown << m_pictures[i];
  }
  ExportDialog dialog(result, m_document->view(), m_window, shown, chosen,
                      m_document->computed().measures());
  if (dialog.exec() == QDialog::Accepted) {
    m_window->statusBar()->showMessage(tr("Exported"), 5000);
  }
}

bool ExportActions::exportData(const QString& path) {
  const ResultPtr result = m_document->computed().result;
  if (!result) {
    m_showError(tr("Export data"), tr("There is no result to export yet."));
    return false;
  }
  try {
    if (QFileInfo(path).suffix().toLower() == QLatin1String("npz")) {
      writeResultNpz(*result, path);
    } else {
      writeStageCsv(*result, m_document->view(), path, m_document->computed().measures().get());
    }
  } catch (const std::exception& e) {
    m_showError(tr("Export data"), QString::fromUtf8(e.what()));
    return false;
  }
  m_window->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
  return true;
}

void ExportActions::exportDataDialog() {
  QString filter;
  const QString csv = tr("Shown stage as CSV (*.csv)");
  const QString npz = tr("All tensors as NumPy archive (*.npz)");
  QString path = QFileDialog::getSaveFileName(
      m_window, tr("Export data"),
      QDir::home().filePath(
          stageName(m_document->view().stage).replace(QLatin1Char(' '), QLatin1Char('_')) +
          QStringLiteral(".csv")),
      csv + QStringLiteral(";;") + npz, &filter);
  if (path.isEmpty()) return;
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QLatin1String("csv") && suffix != QLatin1String("npz")) {
    path += filter == npz ? QStringLiteral(".npz") : QStringLiteral(".csv");
  }
  exportData(path);
}

bool ExportActions::copyImage() {
  const ResultPtr result = m_document->computed().result;
  if (!result) return false;
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("copy.png"));
  ExportOptions options;
  options.scale = m_window->devicePixelRatioF();
  const int picture = activePicture();
  const QString error = picture >= 0 ? m_pictures[picture].write(path, options)
                                     : exportImage(*result, m_document->view(), options, path,
                                                   m_document->computed().measures().get());
  if (!error.isEmpty()) {
    m_showError(tr("Copy image"), error);
    return false;
  }
  QGuiApplication::clipboard()->setImage(QImage(path));
  m_window->statusBar()->showMessage(tr("Image copied to the clipboard"), 5000);
  return true;
}

bool ExportActions::copyTorchCode() {
  const ResultPtr result = m_document->computed().result;
  if (!result) return false;
  try {
    const mhaviz::Problem problem = makeComputeProblem(result->config, m_document->tensors().get());
    const mhaviz::io::TensorMap data = mhaviz::torch_data(problem, *result);
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                               .filePath(QStringLiteral("pytorch"));
    QDir().mkpath(folder);
    const QString dataPath = QDir(folder).filePath(
        QStringLiteral("mhaviz-data-%1.npz")
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"))));
    mhaviz::io::write_npz(dataPath.toStdString(), data);
    // An absolute data path: the pasted script finds its data wherever it is saved.
    const std::string script = mhaviz::torch_script(problem.config, data, dataPath.toStdString(),
                                                    "mhaviz_repro.py", mhaviz::kVersion);
    QGuiApplication::clipboard()->setText(QString::fromStdString(script));
    m_window->statusBar()->showMessage(
        tr("PyTorch script copied; save it as a .py file and run it. Its data: %1")
            .arg(QDir::toNativeSeparators(dataPath)),
        8000);
  } catch (const std::exception& e) {
    m_showError(tr("Copy as PyTorch code"), QString::fromUtf8(e.what()));
    return false;
  }
  return true;
}

}  // namespace mhaviz::ui
