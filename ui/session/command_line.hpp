#pragma once
// The desktop program's command line: `mhaviz [session.mhaviz.json]` or
// `mhaviz --config C.json [--tensors T.npz]`.

#include <QString>

class QCoreApplication;

namespace mhaviz::ui {

struct StartupFiles {
  QString session;  // a session (or configuration) file to open
  QString config;   // --config
  QString tensors;  // --tensors
};

/// Parses the application's arguments with QCommandLineParser; --help and --version print and
/// exit, and a usage error prints the message and exits with status 2.
StartupFiles parseStartupArguments(const QCoreApplication& app);

}  // namespace mhaviz::ui
