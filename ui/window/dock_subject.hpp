#pragma once
// What the docks describe, said at the top of each: while the session is a layer of a model
// ("Layer 1 (encoder.layers.1.self_attn) of reverse.json, head 3") and while the model view is
// on screen (then the docks show the layer selected in it, or the session opened before it
// while it is read). Follows the document's origin, the centre's page and whether the centre is
// shown (the Compare workspace hides it: there the docks show the session, B); hidden for a session
// of the user's own in the full view, where the docks describe the maps on screen. While the
// model view shows the selected layer, the docks that edit the session (parameters, masks and
// inputs) are read-only, with "Open this layer to edit" (the full view). GUI thread only.

#include <QList>
#include <QObject>

class QDockWidget;
class QLabel;
class QPushButton;
class QWidget;

namespace mhaviz::ui {

class Document;
class ModelPages;

class DockSubject : public QObject {
  Q_OBJECT

 public:
  /// Puts a line (object name "dockSubject") above the content of each of `docks`; `editors`
  /// (among them) also get the "Open this layer to edit" button (object name "openLayerToEdit")
  /// and are read-only while the model view is on screen.
  DockSubject(Document* document, ModelPages* pages, const QList<QDockWidget*>& docks,
              const QList<QDockWidget*>& editors, QObject* parent);

  /// The line's text; empty when the docks describe the maps on screen and say nothing.
  [[nodiscard]] QString text() const;
  /// Whether the editing docks are read-only now (the model view shows a layer of its model).
  [[nodiscard]] bool locked() const;
  /// The line above `dock`'s content, and its "Open this layer to edit" button (null for a dock
  /// that edits nothing, or one not given).
  [[nodiscard]] QLabel* line(const QDockWidget* dock) const;
  [[nodiscard]] QPushButton* openButton(const QDockWidget* dock) const;

 private:
  void update();

  Document* m_document;
  ModelPages* m_pages;
  struct Header {
    const QDockWidget* dock;
    QLabel* line;
    QPushButton* open;  // null: the dock edits nothing
  };
  QList<Header> m_headers;
  [[nodiscard]] const Header* headerOf(const QDockWidget* dock) const;
  QList<QWidget*> m_locked;  // what is disabled while locked: the editors' fields
};

}  // namespace mhaviz::ui
