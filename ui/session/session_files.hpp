#pragma once
// The session as a document of the main window: its file, the modified marker in the title,
// the File menu's session actions (New, Open, Open Recent, Save, Save As, Load tensors), drag
// and drop, the unsaved-changes prompt on close/open/new,
// and the autosave offered for recovery after a crash. GUI thread only.

#include <QDateTime>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

#include "session/autosave.hpp"
#include "session/command_line.hpp"
#include "session/session_file.hpp"
#include "session/unsaved_changes.hpp"

class QMainWindow;
class QMenu;

namespace mhaviz::ui {

class Document;
class RecentFilesMenu;

class SessionFiles : public QObject {
  Q_OBJECT

 public:
  /// How the document asks the user. The defaults show modal message boxes; tests replace them
  /// so that nothing ever blocks on a dialog.
  struct Prompts {
    std::function<UnsavedAnswer(const QString& documentName)> unsaved;
    std::function<bool(const QDateTime& written)> recover;  // true: recover
    std::function<void(const QString& title, const QString& message)> error;
  };

  /// Attaches to `window` (title, close and drop events) and `document` (whose results bring a
  /// session's view back). `autosavePath` defaults to this process's autosave file
  /// (Autosave::defaultPath()).
  SessionFiles(QMainWindow* window, Document* document,
               const QString& autosavePath = Autosave::defaultPath());
  ~SessionFiles() override;

  /// Adds the File menu's session and tensors actions to `file`, before its first action.
  void addFileActions(QMenu* file);

  void setPrompts(Prompts prompts) { m_prompts = std::move(prompts); }
  [[nodiscard]] Autosave* autosave() { return &m_autosave; }

  /// Start-up: offers an autosave left by a crashed run (unless files were given), then opens
  /// the files named on the command line.
  /// Returns false when it opened nothing (no recovered work, no files given).
  bool start(const StartupFiles& files);

  /// The current session as it would be saved.
  [[nodiscard]] Session snapshot() const;
  [[nodiscard]] QString filePath() const { return m_path; }
  [[nodiscard]] bool isModified() const;
  [[nodiscard]] QStringList recentFiles() const;

  /// Asks about unsaved changes (if any) and saves when asked to; false: the caller must stop.
  bool maybeSave();
  /// Opens a session or configuration file (after maybeSave); false when it failed or the
  /// user cancelled. Errors go to Prompts::error. A model index (docs/capture-and-models.md) or
  /// a file of attention weights (.npz, .safetensors) is not opened here: it is handed on
  /// through modelRequested, and the session stays as it is.
  bool open(const QString& path);
  /// Opens a bundled example (File > Examples) as a file is opened: after maybeSave, as an
  /// unmodified untitled session named `title`; false when the user cancelled.
  bool openExample(const QString& title, const mhaviz::Config& config);
  /// File > Open's filter: every .json, .npz and .safetensors first (sessions, configurations,
  /// model indexes, attention weights).
  [[nodiscard]] static QString openFilter();
  /// Saves to the current file (Save As when there is none). False on failure or cancel.
  bool save();
  bool saveAs();
  /// Writes to `path` atomically; on success it becomes the current file. Errors go to
  /// Prompts::error.
  bool saveTo(const QString& path);
  /// Reads a .npz/.safetensors and computes with it; shape errors appear inline.
  bool loadTensors(const QString& path);
  /// Back to the default configuration without tensors (after maybeSave); the status bar says
  /// which sizes that is (newSessionText).
  void newSession();
  /// What File > New gives, read from the defaults: "... L = 8, S = 8, N = 1, E = 16, H = 2 ...".
  [[nodiscard]] static QString newSessionText();
  /// Replaces the current session with `session` (no prompt). `path` empty: untitled.
  void applySession(const Session& session, const QString& path, bool markClean);
  /// Shows an error through Prompts::error (never a dialog when tests replaced it).
  void showError(const QString& title, const QString& message);

  /// File > Open's dialog: a session, a configuration, a model index or attention weights,
  /// opened as open() does.
  void openDialog();
  /// File > Load tensors' dialog: a tensors file loaded as loadTensors() does.
  void loadTensorsDialog();

 signals:
  /// open() was given a model index file (model::is_model_index) or attention weights (.npz,
  /// .safetensors: model::read_weights_file): the window shows the model.
  void modelRequested(const QString& path);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void updateTitle();
  void onChanged();
  /// The document's pinned A as a session holds it (nullopt: not in compare mode).
  [[nodiscard]] std::optional<CompareA> pinnedA() const;
  void setTensors(std::shared_ptr<const mhaviz::io::TensorMap> tensors, const QString& file);
  void rememberRecent(const QString& path);
  /// Where the file dialogs start: the folder of the file opened or loaded last, else the
  /// session's, else the home folder.
  [[nodiscard]] QString dialogFolder() const;

  QMainWindow* m_window;
  Document* m_document;
  Prompts m_prompts;
  Autosave m_autosave;
  QString m_path;
  QString m_openFolder;  // the folder of the file opened or loaded last (dialogFolder)
  QString m_untitledName;
  QString m_sizesMessage;  // what New said of the sizes (cleared from the status bar when stale)
  QString m_tensorsFile;
  bool m_embedTensors = false;
  bool m_tensorsDirty = false;
  std::optional<CompareA> m_savedA;          // compare mode's A as last saved or opened
  bool m_started = false;                    // start() has run: the autosave file is this run's own
  std::optional<ViewOptions> m_pendingView;  // reapplied once the new result has arrived
  RecentFilesMenu* m_recent;
};

}  // namespace mhaviz::ui
