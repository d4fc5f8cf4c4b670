#include "window/workspaces.hpp"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QLayout>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QSignalBlocker>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>
#include <QToolTip>
#include <utility>

#include "document/document.hpp"

namespace mhaviz::ui {

namespace {

// The version QMainWindow::saveState records: arrangements of another set of docks are not
// restored (the default is shown instead). Raise it when docks are added or removed.
constexpr int kLayoutVersion = 40;

QString stateKey(const QString& workspace) {
  return QStringLiteral("window/workspaces/%1").arg(workspace);
}

const QString kCurrentKey = QStringLiteral("window/workspace");

}  // namespace

Workspaces::Workspaces(QMainWindow* window, Document* document, QList<Workspace> workspaces,
                       QToolBar* before)
    : QObject(window),
      m_window(window),
      m_document(document),
      m_list(std::move(workspaces)),
      m_states(m_list.size()),
      m_toolBar(new QToolBar(tr("Workspaces"), window)),
      m_tabs(new QTabBar),
      m_group(new QActionGroup(this)),
      m_reset(new QAction(tr("&Reset layout"), this)) {
  m_toolBar->setObjectName(QStringLiteral("workspaceToolBar"));
  m_toolBar->setMovable(false);
  m_toolBar->setFloatable(false);
  m_toolBar->toggleViewAction()->setVisible(false);  // always there
  m_tabs->setDocumentMode(true);
  m_tabs->setDrawBase(false);
  m_tabs->setExpanding(false);
  m_tabs->setFocusPolicy(Qt::TabFocus);
  m_toolBar->addWidget(m_tabs);
  if (before != nullptr) {
    window->insertToolBar(before, m_toolBar);
  } else {
    window->addToolBar(Qt::TopToolBarArea, m_toolBar);
  }
  m_group->setExclusive(true);
  for (int i = 0; i < count(); ++i) {
    const Workspace& w = m_list.at(i);
    m_tabs->addTab(w.name);
    const QString shortcut = w.shortcut.toString(QKeySequence::NativeText);
    m_tabs->setTabToolTip(
        i, shortcut.isEmpty() ? w.toolTip : QStringLiteral("%1 (%2)").arg(w.toolTip, shortcut));
    auto* action = new QAction(w.name, this);
    action->setCheckable(true);
    action->setShortcut(w.shortcut);
    action->setShortcutContext(Qt::ApplicationShortcut);  // also from a floating dock
    action->setStatusTip(w.toolTip);
    m_group->addAction(action);
    m_actions.append(action);
    window->addAction(action);  // the shortcut works while the menu bar is hidden
    connect(action, &QAction::triggered, this, [this, i] { setCurrent(i); });
  }
  m_reset->setStatusTip(tr("Give the current workspace its default arrangement of docks back"));
  connect(m_reset, &QAction::triggered, this, &Workspaces::resetLayout);
  connect(m_tabs, &QTabBar::currentChanged, this, [this](int i) {
    if (i != m_current) setCurrent(i);
    if (m_current >= 0 && m_tabs->currentIndex() != m_current) {
      const QSignalBlocker block(m_tabs);
      m_tabs->setCurrentIndex(m_current);  // switching is off in presentation mode
    }
  });
  // A workspace set in the document (a session's) is shown; one that cannot be (a later
  // mhaviz's, or while switching is off) is set back to the one shown.
  connect(document, &Document::changed, this, [this](Document::Changes what) {
    if (!(what & Document::Change::workspace) || m_current < 0) return;
    setCurrent(indexOf(m_document->workspace()));
    m_document->setWorkspace(currentKey());
  });
}

Workspaces::~Workspaces() = default;

QString Workspaces::currentKey() const {
  return m_current >= 0 ? m_list.at(m_current).key : QString();
}

int Workspaces::indexOf(const QString& key) const {
  for (int i = 0; i < count(); ++i) {
    if (m_list.at(i).key == key) return i;
  }
  return -1;
}

void Workspaces::setCurrent(int index) {
  if (index < 0 || index >= count() || index == m_current || !m_enabled) return;
  if (m_current >= 0) {
    applySizes();  // the arrangement left as its default meant it
    m_states[m_current] = m_window->saveState(kLayoutVersion);
    m_previous = m_current;
  }
  m_current = index;
  show(index, false);
  m_document->setWorkspace(currentKey());
  emit currentChanged(index);
}

void Workspaces::resetLayout() {
  if (m_current < 0 || !m_enabled) return;
  m_states[m_current].clear();
  show(m_current, true);
}

void Workspaces::setArrangement(int index, const QByteArray& state) {
  if (index < 0 || index >= count() || index == m_current) return;
  m_states[index] = state;
}

void Workspaces::show(int index, bool useDefault) {
  // A tooltip of the arrangement left would float over the docks of this one.
  QToolTip::hideText();
  const Workspace& w = m_list.at(index);
  if (w.enter) w.enter();
  const QByteArray& state = m_states.at(index);
  m_sizing = false;
  if (useDefault || state.isEmpty() || !m_window->restoreState(state, kLayoutVersion)) {
    if (w.arrange) w.arrange();
    if (w.sizes) {
      if (m_window->isVisible()) {  // the docks placed get their geometry now
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (QLayout* layout = m_window->layout()) layout->activate();
      }
      w.sizes();
      m_sizing = true;
      QTimer::singleShot(0, this, &Workspaces::applySizes);
    }
  }
  {
    const QSignalBlocker block(m_tabs);
    m_tabs->setCurrentIndex(index);
  }
  m_actions.at(index)->setChecked(true);
}

void Workspaces::applySizes() {
  if (!m_sizing) return;
  m_sizing = false;
  if (m_list.at(m_current).sizes) m_list.at(m_current).sizes();
}

QByteArray Workspaces::stateOf(int index) const {
  return index == m_current ? m_window->saveState(kLayoutVersion) : m_states.at(index);
}

void Workspaces::restore() {
  QSettings settings;
  for (int i = 0; i < count(); ++i) {
    m_states[i] = settings.value(stateKey(m_list.at(i).key)).toByteArray();
  }
  const int start = indexOf(settings.value(kCurrentKey).toString());
  m_current = start >= 0 ? start : 0;
  m_previous = 0;
  show(m_current, false);
  m_document->setWorkspace(currentKey());
  emit currentChanged(m_current);
}

void Workspaces::save() {
  applySizes();
  QSettings settings;
  for (int i = 0; i < count(); ++i) {
    const QByteArray state = stateOf(i);
    if (state.isEmpty()) {
      settings.remove(stateKey(m_list.at(i).key));
    } else {
      settings.setValue(stateKey(m_list.at(i).key), state);
    }
  }
  settings.setValue(kCurrentKey, currentKey());
}

void Workspaces::addMenu(QMenu* view) {
  auto* menu = new QMenu(tr("&Workspace"), view);
  menu->setObjectName(QStringLiteral("workspaceMenu"));
  for (QAction* action : std::as_const(m_actions)) menu->addAction(action);
  menu->addSeparator();
  menu->addAction(m_reset);
  QAction* first = view->actions().value(0);
  view->insertMenu(first, menu);
  if (first != nullptr) view->insertSeparator(first);
}

void Workspaces::setEnabled(bool on) {
  m_enabled = on;
  m_toolBar->setEnabled(on);
  for (QAction* action : std::as_const(m_actions)) action->setEnabled(on);
  m_reset->setEnabled(on);
}

void Workspaces::reenter() {
  if (m_current >= 0 && m_list.at(m_current).enter) m_list.at(m_current).enter();
}

}  // namespace mhaviz::ui
