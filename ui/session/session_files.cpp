#include "session/session_files.hpp"

#include <QAction>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>
#include <QUndoStack>
#include <exception>
#include <span>
#include <utility>

#include "document/document.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "session/recent_files_menu.hpp"

namespace mhaviz::ui {

namespace {

/// A JSON file whose "format" is "mhaviz-model" (small enough to be an index at all).
bool isModelIndexFile(const QString& path) {
  QFile file(path);
  if (!mhaviz::model::names_model_index(path.toStdString()) ||
      file.size() > static_cast<qint64>(mhaviz::model::kMaxIndexBytes) ||
      !file.open(QIODevice::ReadOnly)) {
    return false;
  }
  const QByteArray text = file.readAll();
  return mhaviz::model::is_model_index(
      std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
}

QString sessionFilter() { return QObject::tr("mhaviz session (*.mhaviz.json);;JSON (*.json)"); }

bool isTensorFile(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  return suffix == QLatin1String("npz") || suffix == QLatin1String("safetensors");
}

bool isJsonFile(const QString& path) {
  return QFileInfo(path).suffix().toLower() == QLatin1String("json");
}

/// Throws InvalidInput for generation settings that do not fit the file's own sizes (a mask
/// cell outside L x S, a padding length over S, labels of the wrong count), as mhaviz-cli
/// does. The window's size changes fit such settings (gen::fit_to_sizes); done to a file being
/// opened, that would change its data without a word. Size errors themselves are left to the
/// inline message.
void checkGenerationSettings(const mhaviz::Config& config) {
  try {
    mhaviz::validate_config(config);
  } catch (const std::exception&) {
    return;
  }
  mhaviz::gen::validate_generation(config);
}

SessionFiles::Prompts defaultPrompts(QMainWindow* window) {
  SessionFiles::Prompts p;
  p.unsaved = [window](const QString& name) {
    const auto answer = QMessageBox::warning(
        window, QObject::tr("Unsaved changes"),
        QObject::tr("Save the changes to %1 before continuing?").arg(name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    return answer == QMessageBox::Save      ? UnsavedAnswer::save
           : answer == QMessageBox::Discard ? UnsavedAnswer::discard
                                            : UnsavedAnswer::cancel;
  };
  p.recover = [window](const QDateTime& written) {
    QMessageBox box(QMessageBox::Question, QObject::tr("Recover unsaved work"),
                    QObject::tr("Recover unsaved work from %1?")
                        .arg(QLocale().toString(written, QLocale::LongFormat)),
                    QMessageBox::NoButton, window);
    box.setInformativeText(QObject::tr("mhaviz did not close normally last time."));
    QPushButton* recover = box.addButton(QObject::tr("&Recover"), QMessageBox::AcceptRole);
    box.addButton(QObject::tr("&Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(recover);
    box.exec();
    return box.clickedButton() == recover;
  };
  p.error = [window](const QString& title, const QString& message) {
    QMessageBox::warning(window, title, message);
  };
  return p;
}

}  // namespace

SessionFiles::SessionFiles(QMainWindow* window, Document* document, const QString& autosavePath)
    : QObject(window),
      m_window(window),
      m_document(document),
      m_prompts(defaultPrompts(window)),
      m_autosave(autosavePath, [this] { return snapshot(); }),
      m_untitledName(tr("Untitled")),
      m_recent(new RecentFilesMenu(this)) {
  connect(m_recent, &RecentFilesMenu::openRequested, this,
          [this](const QString& path) { open(path); });
  connect(m_recent, &RecentFilesMenu::missingRemoved, this, [this](const QStringList& removed) {
    showError(tr("Open Recent"),
              tr("These files no longer exist and were removed from the list:\n%1")
                  .arg(removed.join(QLatin1Char('\n'))));
  });
  window->setAcceptDrops(true);
  window->installEventFilter(this);
  QUndoStack* undo = document->undoStack();
  connect(undo, &QUndoStack::cleanChanged, this, [this] { onChanged(); });
  connect(document, &Document::changed, this, [this](Document::Changes what) {
    if ((what & Document::Change::result) && m_pendingView) {
      const ViewOptions view = *m_pendingView;
      m_pendingView.reset();
      m_document->setView(view);
    }
    if (what & Document::Change::pinned) onChanged();  // A pinned or dropped: modified or not
    if (!(what & Document::Change::config)) return;
    // The sizes New announced are stale once the settings change (issue 40: "H = 2" stayed
    // up after H became 8).
    if (!m_sizesMessage.isEmpty() && m_window->statusBar()->currentMessage() == m_sizesMessage) {
      m_window->statusBar()->clearMessage();
    }
    onChanged();
  });
  updateTitle();
}

SessionFiles::~SessionFiles() {
  // Destroyed with the window at a normal exit: nothing left to recover.
  m_autosave.clear();
}

bool SessionFiles::isModified() const {
  return m_tensorsDirty || pinnedA() != m_savedA || !m_document->undoStack()->isClean();
}

std::optional<CompareA> SessionFiles::pinnedA() const {
  const std::optional<Pinned>& a = m_document->pinned();
  if (!a) return std::nullopt;
  return CompareA{a->config, a->tensors};
}

Session SessionFiles::snapshot() const {
  Session s;
  s.config = m_document->config();
  s.view = m_pendingView.value_or(m_document->view());
  s.tensors = m_document->tensors();
  s.tensorsFile = m_tensorsFile;
  s.embedTensors = m_embedTensors;
  s.compareA = pinnedA();
  s.workspace = m_document->workspace();
  return s;
}

void SessionFiles::onChanged() {
  updateTitle();
  // Until start() has looked at it, the autosave file is a crashed run's work: the window's
  // first computation must not remove it.
  if (m_started) {
    if (isModified()) {
      m_autosave.changed();
    } else {
      m_autosave.clear();
    }
  }
}

void SessionFiles::updateTitle() {
  const bool modified = isModified();
  if (m_path.isEmpty() && !modified && m_untitledName == tr("Untitled")) {
    // A fresh, unchanged session: just the program's name.
    m_window->setWindowModified(false);
    m_window->setWindowTitle(QStringLiteral("mhaviz"));
    return;
  }
  const QString name = m_path.isEmpty() ? m_untitledName : QFileInfo(m_path).fileName();
  m_window->setWindowTitle(QStringLiteral("%1[*] — mhaviz").arg(name));
  m_window->setWindowModified(modified);
}

void SessionFiles::showError(const QString& title, const QString& message) {
  if (m_prompts.error) m_prompts.error(title, message);
}

bool SessionFiles::maybeSave() {
  const QString name = m_path.isEmpty() ? m_untitledName : QFileInfo(m_path).fileName();
  const UnsavedAnswer answer =
      isModified() && m_prompts.unsaved ? m_prompts.unsaved(name) : UnsavedAnswer::discard;
  switch (decideUnsaved(isModified(), answer)) {
    case UnsavedAction::proceed:
      return true;
    case UnsavedAction::saveThenProceed:
      return save();
    case UnsavedAction::abort:
      return false;
  }
  return false;
}

void SessionFiles::applySession(const Session& session, const QString& path, bool markClean) {
  m_path = path;
  m_untitledName =
      session.fromConfigFile && !path.isEmpty() ? QFileInfo(path).fileName() : tr("Untitled");
  if (session.fromConfigFile) m_path.clear();  // never overwrite a configuration with a session
  m_tensorsFile = session.tensorsFile;
  m_embedTensors = session.embedTensors;
  m_tensorsDirty = false;
  m_savedA = session.compareA;
  m_pendingView = session.view;
  // The tensors and where they came from: a session replaced leaves nothing of the one before
  // (the model view closes unless it is one of its layers).
  if (m_document->tensors() != session.tensors) {
    m_document->setTensors(session.tensors, session.origin);
  } else {
    m_document->setOrigin(session.origin);
  }
  m_document->changeConfig(session.config, tr("Open session"));
  if (markClean) m_document->undoStack()->clear();
  m_document->setView(session.view);
  // Compare mode's A as the session has it: the compare panel computes it (it has no result).
  if (session.compareA) {
    m_document->setPinned(Pinned{session.compareA->config, session.compareA->tensors, {}, {}, {}});
  } else if (m_document->pinned()) {
    m_document->setPinned(std::nullopt);
  }
  // The workspace the session names (shown by the window; one it does not know is not); a
  // version 1 file with A pinned shows Compare.
  const QString workspace = !session.workspace.isEmpty() ? session.workspace
                            : session.compareA           ? QStringLiteral("compare")
                                                         : QString();
  if (!workspace.isEmpty()) m_document->setWorkspace(workspace);
  onChanged();
}

bool SessionFiles::open(const QString& path) {
  // Plain arrays (.npz, .safetensors) opened as a file are attention weights (the Load tensors
  // action and a drop take them as the session's tensors).
  if (isModelIndexFile(path) || isTensorFile(path)) {
    rememberRecent(QFileInfo(path).absoluteFilePath());
    m_openFolder = QFileInfo(path).absolutePath();
    emit modelRequested(path);
    return true;
  }
  if (!maybeSave()) return false;
  Session session;
  try {
    session = readSession(path);
    checkGenerationSettings(session.config);
  } catch (const std::exception& e) {
    showError(tr("Open"), QString::fromUtf8(e.what()));
    return false;
  }
  applySession(session, path, true);
  rememberRecent(path);
  m_openFolder = QFileInfo(path).absolutePath();
  m_window->statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
  return true;
}

bool SessionFiles::save() { return m_path.isEmpty() ? saveAs() : saveTo(m_path); }

bool SessionFiles::saveAs() {
  QString suggested = m_path;
  if (suggested.isEmpty()) {
    suggested = QDir::home().filePath(QStringLiteral("session.mhaviz.json"));
  }
  QString path =
      QFileDialog::getSaveFileName(m_window, tr("Save session"), suggested, sessionFilter());
  if (path.isEmpty()) return false;
  if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
    path += QStringLiteral(".mhaviz.json");
  }
  return saveTo(path);
}

bool SessionFiles::saveTo(const QString& path) {
  try {
    writeSession(snapshot(), path);
  } catch (const std::exception& e) {
    showError(tr("Save"), QString::fromUtf8(e.what()));
    return false;
  }
  m_path = QFileInfo(path).absoluteFilePath();
  m_tensorsDirty = false;
  m_savedA = pinnedA();
  m_document->undoStack()->setClean();
  rememberRecent(m_path);
  onChanged();
  m_window->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
  return true;
}

void SessionFiles::setTensors(std::shared_ptr<const mhaviz::io::TensorMap> tensors,
                              const QString& file) {
  m_tensorsFile = file;
  m_tensorsDirty = true;
  m_document->setTensors(std::move(tensors));
  onChanged();
}

bool SessionFiles::loadTensors(const QString& path) {
  std::shared_ptr<const mhaviz::io::TensorMap> tensors;
  try {
    tensors = std::make_shared<const mhaviz::io::TensorMap>(
        mhaviz::io::read_tensor_file(path.toStdString()));
  } catch (const std::exception& e) {
    showError(tr("Load tensors"), QString::fromUtf8(e.what()));
    return false;
  }
  // NaN/Inf are no error (PyTorch computes with them too); the warning stays until replaced.
  const std::string nonfinite =
      mhaviz::nonfinite_warning(*tensors, QFileInfo(path).fileName().toStdString());
  setTensors(std::move(tensors), QFileInfo(path).absoluteFilePath());
  m_openFolder = QFileInfo(path).absolutePath();
  if (!nonfinite.empty()) {
    m_window->statusBar()->showMessage(QString::fromStdString(nonfinite));
  } else {
    m_window->statusBar()->showMessage(
        tr("Computing with the tensors of %1").arg(QFileInfo(path).fileName()), 5000);
  }
  return true;
}

bool SessionFiles::openExample(const QString& title, const mhaviz::Config& config) {
  if (!maybeSave()) return false;
  Session session;
  session.config = config;
  applySession(session, QString(), true);
  m_untitledName = title;  // the window's title names the example, unmodified
  updateTitle();
  m_window->statusBar()->showMessage(tr("Opened the example \u201c%1\u201d").arg(title), 5000);
  return true;
}

void SessionFiles::newSession() {
  if (!maybeSave()) return;
  applySession(Session{}, QString(), true);
  m_sizesMessage = newSessionText();
  m_window->statusBar()->showMessage(m_sizesMessage, 15000);
}

QString SessionFiles::newSessionText() {
  // Read from the defaults themselves, so that the message follows them.
  const mhaviz::Config c = Session{}.config;
  return tr("New session with the defaults of a configuration file: L = %1, S = %2, N = %3, "
            "E = %4, H = %5, weights as PyTorch initialises them, random inputs.")
      .arg(c.tgt_len)
      .arg(c.src_len)
      .arg(c.batch())
      .arg(c.embed_dim)
      .arg(c.num_heads);
}

bool SessionFiles::start(const StartupFiles& files) {
  m_started = true;
  const bool filesGiven =
      !files.session.isEmpty() || !files.config.isEmpty() || !files.tensors.isEmpty();
  QString damaged;
  const std::optional<RecoveryOffer> offer = Autosave::pendingRecovery(m_autosave.path(), &damaged);
  if (offer && !filesGiven && m_prompts.recover && m_prompts.recover(offer->written)) {
    applySession(offer->session, QString(), false);
    m_tensorsDirty = true;  // recovered work is unsaved until the user saves it
    onChanged();
    return true;
  }
  if (offer && !filesGiven) m_autosave.clear();
  if (!damaged.isEmpty() && !filesGiven) m_autosave.clear();
  if (!files.session.isEmpty()) open(files.session);
  if (!files.config.isEmpty()) open(files.config);
  // Tensors named on the command line are part of what is opened, not an edit.
  if (!files.tensors.isEmpty() && loadTensors(files.tensors)) {
    m_tensorsDirty = false;
    m_savedA = pinnedA();
    onChanged();
  }
  return filesGiven;
}

QStringList SessionFiles::recentFiles() const { return m_recent->files(); }

void SessionFiles::rememberRecent(const QString& path) { m_recent->remember(path); }

QString SessionFiles::openFilter() {
  return tr(
      "Sessions, configurations, models and attention weights (*.json *.npz "
      "*.safetensors);;mhaviz session (*.mhaviz.json);;Attention weights (*.npz "
      "*.safetensors)");
}

QString SessionFiles::dialogFolder() const {
  if (!m_openFolder.isEmpty()) return m_openFolder;
  return m_path.isEmpty() ? QDir::homePath() : QFileInfo(m_path).absolutePath();
}

void SessionFiles::openDialog() {
  const QString path = QFileDialog::getOpenFileName(
      m_window, tr("Open session, configuration, model or attention weights"), dialogFolder(),
      openFilter());
  if (!path.isEmpty()) open(path);
}

void SessionFiles::loadTensorsDialog() {
  const QString path =
      QFileDialog::getOpenFileName(m_window, tr("Load tensors"), dialogFolder(),
                                   tr("Tensors with PyTorch names (*.npz *.safetensors)"));
  if (!path.isEmpty()) loadTensors(path);
}

void SessionFiles::addFileActions(QMenu* file) {
  QAction* first = file->actions().isEmpty() ? nullptr : file->actions().front();
  const auto add = [&](const QString& text, auto slot, const QKeySequence& keys = {}) {
    auto* a = new QAction(text, file);
    a->setShortcut(keys);
    connect(a, &QAction::triggered, this, slot);
    file->insertAction(first, a);
    return a;
  };
  add(
      tr("&New"), [this] { newSession(); }, QKeySequence::New)
      ->setStatusTip(newSessionText());
  add(
      tr("&Open…"), [this] { openDialog(); }, QKeySequence::Open);
  file->insertMenu(first, m_recent->menu(tr("Open &Recent"), file));
  add(
      tr("&Save"), [this] { save(); }, QKeySequence::Save);
  add(
      tr("Save &As…"), [this] { saveAs(); }, QKeySequence::SaveAs);
  file->insertSeparator(first);
  add(tr("&Load tensors…"), [this] { loadTensorsDialog(); });
  file->insertSeparator(first);
}

bool SessionFiles::eventFilter(QObject* watched, QEvent* event) {
  if (watched != m_window) return QObject::eventFilter(watched, event);
  switch (event->type()) {
    case QEvent::Close:
      if (!maybeSave()) {
        event->ignore();
        return true;
      }
      m_autosave.clear();
      break;
    case QEvent::DragEnter: {
      auto* drag = static_cast<QDragEnterEvent*>(event);
      const QList<QUrl> urls = drag->mimeData()->urls();
      if (urls.size() == 1 && urls.front().isLocalFile() &&
          (isJsonFile(urls.front().toLocalFile()) || isTensorFile(urls.front().toLocalFile()))) {
        drag->acceptProposedAction();
        return true;
      }
      break;
    }
    case QEvent::Drop: {
      auto* drop = static_cast<QDropEvent*>(event);
      const QList<QUrl> urls = drop->mimeData()->urls();
      if (urls.size() != 1 || !urls.front().isLocalFile()) break;
      const QString path = urls.front().toLocalFile();
      drop->acceptProposedAction();
      if (isTensorFile(path)) {
        loadTensors(path);
      } else {
        open(path);
      }
      return true;
    }
    default:
      break;
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace mhaviz::ui
