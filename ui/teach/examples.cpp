#include "teach/examples.hpp"

#include <QCoreApplication>
#include <QFile>
#include <QMenu>
#include <QMessageBox>
#include <exception>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/config_json.hpp"

namespace mhaviz::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("mhaviz::ui", text); }

}  // namespace

QList<ExampleSession> exampleSessions() {
  return {
      {tr("Causal self-attention"), QStringLiteral(":/examples/causal_self_attention.json")},
      {tr("Padding with a fully padded batch element"),
       QStringLiteral(":/examples/padding_fully_padded.json")},
      {tr("add_bias_kv and add_zero_attn together"),
       QStringLiteral(":/examples/bias_kv_and_zero_attn.json")},
      {tr("Cross-attention with kdim and vdim"),
       QStringLiteral(":/examples/cross_attention_kdim_vdim.json")},
      {tr("ALiBi per-head bias"), QStringLiteral(":/examples/alibi_per_head_bias.json")},
      {tr("Graphormer-style edge bias"), QStringLiteral(":/examples/graphormer_edge_bias.json")},
  };
}

mhaviz::Config loadExample(const QString& resource) {
  QFile file(resource);
  if (!file.open(QIODevice::ReadOnly)) {
    throw mhaviz::InvalidInput(
        tr("cannot open the bundled example %1; the program was built without its resources")
            .arg(resource)
            .toStdString());
  }
  const QByteArray text = file.readAll();
  return mhaviz::io::parse_config_json(
      std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
      resource.toStdString());
}

QMenu* addExamplesMenu(QMenu* file,
                       std::function<void(const QString& title, const mhaviz::Config&)> open,
                       QWidget* parent) {
  QMenu* menu = new QMenu(tr("E&xamples"), file);
  menu->setObjectName(QStringLiteral("examplesMenu"));
  // Before the first separator-delimited group's end: keep Quit last.
  const QList<QAction*> actions = file->actions();
  file->insertMenu(actions.isEmpty() ? nullptr : actions.front(), menu);
  for (const ExampleSession& example : exampleSessions()) {
    QAction* a = menu->addAction(example.title);
    a->setData(example.resource);
    QObject::connect(a, &QAction::triggered, menu, [example, open, parent] {
      try {
        open(example.title, loadExample(example.resource));
      } catch (const std::exception& e) {
        QMessageBox::warning(parent, tr("Examples"), QString::fromUtf8(e.what()));
      }
    });
  }
  return menu;
}

}  // namespace mhaviz::ui
