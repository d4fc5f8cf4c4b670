#pragma once
// The commands of mhaviz-cli. Each adds its options to a QCommandLineParser and runs from the
// parsed options, returning an exit code; they throw UsageError or mhaviz::InvalidInput, which
// cli_app.cpp turns into an `error: ...` line and exit code 2 or 1.

#include <QCommandLineParser>
#include <span>

namespace mhaviz::cli {

struct Command {
  const char* name;      // "run"
  const char* summary;   // one line for the global help
  const char* synopsis;  // arguments after the command name, for "Usage:"
  void (*addOptions)(QCommandLineParser& parser);
  int (*execute)(const QCommandLineParser& parser);
  bool needsGui;  // draws pictures (export, compare, model): needs a QApplication (offscreen)
};

/// Every command, in the order the global help lists them.
std::span<const Command> commands();

void addRunOptions(QCommandLineParser& parser);
int runCommand(const QCommandLineParser& parser);

void addExportOptions(QCommandLineParser& parser);
int exportCommand(const QCommandLineParser& parser);

void addShapesOptions(QCommandLineParser& parser);
int shapesCommand(const QCommandLineParser& parser);

void addCompareOptions(QCommandLineParser& parser);
int compareCommand(const QCommandLineParser& parser);

void addTorchOptions(QCommandLineParser& parser);
int torchCommand(const QCommandLineParser& parser);

void addModelOptions(QCommandLineParser& parser);
int modelCommand(const QCommandLineParser& parser);

}  // namespace mhaviz::cli
