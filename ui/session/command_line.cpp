#include "session/command_line.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>
#include <cstdlib>

namespace mhaviz::ui {

StartupFiles parseStartupArguments(const QCoreApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QCoreApplication::translate(
      "mhaviz", "Multi-head attention visualiser: what nn.MultiheadAttention computes, per head."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("session"),
      QCoreApplication::translate("mhaviz",
                                  "A session (.mhaviz.json), configuration or model "
                                  "file, or attention weights (.npz, .safetensors)."),
      QStringLiteral("[session]"));
  const QCommandLineOption config(
      QStringLiteral("config"),
      QCoreApplication::translate("mhaviz", "Start from this configuration file (JSON)."),
      QStringLiteral("file"));
  const QCommandLineOption tensors(
      QStringLiteral("tensors"),
      QCoreApplication::translate("mhaviz",
                                  "Use these tensors (.npz/.safetensors with PyTorch's names)."),
      QStringLiteral("file"));
  parser.addOption(config);
  parser.addOption(tensors);
  parser.process(app);
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1 || (!positional.isEmpty() && parser.isSet(config))) {
    std::fprintf(stderr, "%s\n",
                 qPrintable(QCoreApplication::translate(
                     "mhaviz", "Give one session file, or --config (and --tensors), not both.")));
    std::exit(2);
  }
  StartupFiles files;
  if (!positional.isEmpty()) files.session = positional.front();
  files.config = parser.value(config);
  files.tensors = parser.value(tensors);
  return files;
}

}  // namespace mhaviz::ui
