#include "window/app_info.hpp"

#include <QCoreApplication>
#include <QMessageBox>

#include "mhaviz/core/version.hpp"

namespace mhaviz::ui {

QString applicationVersion() { return QString::fromLatin1(mhaviz::kVersion); }

void setApplicationInfo() {
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz"));
  QCoreApplication::setApplicationVersion(applicationVersion());
}

void showAboutDialog(QWidget* parent) {
  QMessageBox::about(
      parent, QObject::tr("About mhaviz"),
      QObject::tr("<h3>mhaviz %1</h3>"
                  "<p>A multi-head attention visualiser: it computes exactly what PyTorch's "
                  "<code>nn.MultiheadAttention</code> computes, keeps every intermediate and "
                  "draws one heatmap per head, including the extra key columns of "
                  "<code>add_bias_kv</code> (bias_k) and <code>add_zero_attn</code> (zero).</p>"
                  "<p>Hover over a cell for its head, query, key and value; the mouse wheel "
                  "zooms a map. Every parameter change can be undone (Ctrl+Z).</p>")
          .arg(applicationVersion()));
}

}  // namespace mhaviz::ui
