#pragma once
// Installs the "Masks & inputs" dock (attn_mask, key_padding_mask, inputs and weights editors)
// into the main window, tabbed with the parameter dock, and shows the document's resize
// notes (gen::fit_to_sizes) in the status bar. The editors scroll in a SteadyScrollArea: a
// field keeps its place when rows above it appear or vanish. GUI thread only.

class QDockWidget;
class QMainWindow;

namespace mhaviz::ui {

class Document;

/// Creates the dock (object name "maskDock"), tabbed with `tabWith` when it is not null, and
/// returns it; the window owns it.
QDockWidget* installMaskEditors(QMainWindow* window, Document* document, QDockWidget* tabWith);

}  // namespace mhaviz::ui
