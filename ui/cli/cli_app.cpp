#include "cli/cli_app.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/suggest.hpp"
#include "mhaviz/core/version.hpp"

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_ADDRESS__) && __has_include(<sanitizer/lsan_interface.h>)
#include <sanitizer/lsan_interface.h>
#define MHAVIZ_CHECK_LEAKS_EARLY 1
#endif

namespace mhaviz::cli {

namespace {

const QString kProgram = QStringLiteral("mhaviz-cli");

void printOut(const QString& text) { std::cout << text.toStdString() << std::flush; }

/// One `error: ...` line on stderr (messages are single lines; stray newlines are folded).
void printError(const QString& message) {
  QString line = message.simplified();
  std::cerr << "error: " << line.toStdString() << '\n' << std::flush;
}

QString globalHelp() {
  QString text = QStringLiteral(
      "Usage: mhaviz-cli <command> [options]\n\n"
      "Computes nn.MultiheadAttention exactly as PyTorch does, without a window.\n\n"
      "Commands:\n");
  for (const Command& c : commands()) {
    text += QStringLiteral("  %1 %2\n").arg(QString::fromLatin1(c.name), -8).arg(c.summary);
  }
  text += QStringLiteral(
      "\nOptions:\n"
      "  -h, --help     Show this help (mhaviz-cli <command> --help: a command's options).\n"
      "  -v, --version  Show the version.\n\n"
      "Exit codes: 0 success, 1 invalid input (files, tensors, settings), 2 usage error.\n");
  return text;
}

QString commandHelp(const Command& command, const QCommandLineParser& parser) {
  QString text = QStringLiteral("Usage: mhaviz-cli %1 %2\n\n%3\n\n")
                     .arg(QString::fromLatin1(command.name), QString::fromLatin1(command.synopsis),
                          QString::fromLatin1(command.summary));
  const QString generated = parser.helpText();
  const qsizetype options = generated.indexOf(QStringLiteral("Options:"));
  text += options >= 0 ? generated.mid(options) : generated;
  return text;
}

/// Prints the usage error and the hint to the right help, returns exit code 2.
int usageError(const QString& message, const Command* command) {
  printError(message);
  const QString where = command != nullptr ? kProgram + " " + command->name : kProgram;
  std::cerr << "Run '" << where.toStdString() << " --help' for usage.\n" << std::flush;
  return kExitUsage;
}

const Command* findCommand(const QString& name) {
  for (const Command& c : commands()) {
    if (name == QLatin1String(c.name)) return &c;
  }
  return nullptr;
}

QString unknownCommand(const QString& name) {
  std::vector<std::string_view> names;
  QString list;
  for (const Command& c : commands()) {
    names.emplace_back(c.name);
    list += (list.isEmpty() ? "" : ", ") + QString::fromLatin1(c.name);
  }
  const std::string word = name.toStdString();
  QString message = QStringLiteral("unknown command \"%1\"").arg(name);
  if (const auto best = io::closest_name(word, names)) {
    message += QStringLiteral(" (did you mean \"%1\"?)")
                   .arg(QString::fromUtf8(best->data(), qsizetype(best->size())));
  }
  return message + "; the commands are " + list;
}

/// Parses the command's own options (`args` starts with the program name) and runs it.
int runCommand(const Command& command, const QStringList& args) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QString::fromLatin1(command.summary));
  const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                QStringLiteral("Show this command's help."));
  parser.addOption(help);
  command.addOptions(parser);
  if (!parser.parse(args)) throw UsageError(parser.errorText().toStdString());
  if (parser.isSet(help)) {
    printOut(commandHelp(command, parser));
    return kExitOk;
  }
  if (!parser.positionalArguments().isEmpty()) {
    throw UsageError(
        QStringLiteral("unexpected argument \"%1\" (options take the form --name value)")
            .arg(parser.positionalArguments().first())
            .toStdString());
  }
  return command.execute(parser);
}

/// From a plain shell (ssh, cron, a container) XDG_RUNTIME_DIR is often unset, and Qt then
/// prints "QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to ..." on stderr for every
/// command: noise next to the CLI's one-line messages. Before the application exists, point it
/// at a private folder (mode 0700, owned by us) under the temporary directory, as Qt would.
void ensureRuntimeDir() {
#ifdef Q_OS_UNIX
  if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
  const char* tmp = std::getenv("TMPDIR");
  const std::string base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  const auto usable = [](const std::string& dir) {
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) return false;
    if (!S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) return false;  // not a symlink, ours
    return (st.st_mode & 0777) == 0700 || ::chmod(dir.c_str(), 0700) == 0;
  };
  std::string dir = base + "/mhaviz-runtime-" + std::to_string(::getuid());
  if (::mkdir(dir.c_str(), 0700) != 0 && !usable(dir)) {
    // Taken by someone else or not a folder: a fresh one of our own instead.
    std::string pattern = base + "/mhaviz-runtime-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return;  // Qt warns, as before
    dir = pattern;
  }
  if (usable(dir)) qputenv("XDG_RUNTIME_DIR", QByteArray::fromStdString(dir));
#endif
}

/// Under AddressSanitizer, LeakSanitizer's check runs when this guard goes: after the command,
/// before the application is destroyed, instead of at exit. Painting a PDF or a large image
/// starts Qt's pooled threads, which end (detached) while the application is destroyed; at exit
/// one can still be half way out, and LeakSanitizer's stop-the-world tracer then crashes
/// ("Tracer caught signal 11") instead of checking. Here they are idle. The check runs once per
/// process, so exit does not repeat it; what Qt frees while tearing down was reachable anyway.
struct LeakCheckBeforeTeardown {
  LeakCheckBeforeTeardown() = default;
  LeakCheckBeforeTeardown(const LeakCheckBeforeTeardown&) = delete;
  LeakCheckBeforeTeardown& operator=(const LeakCheckBeforeTeardown&) = delete;
  ~LeakCheckBeforeTeardown() {
#ifdef MHAVIZ_CHECK_LEAKS_EARLY
    __lsan_do_leak_check();
#endif
  }
};

std::unique_ptr<QCoreApplication> makeApplication(int& argc, char* argv[], bool gui) {
  if (gui) {
    // Image export draws widgets; no display is needed unless the user asks for a platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    return std::make_unique<QApplication>(argc, argv);
  }
  return std::make_unique<QCoreApplication>(argc, argv);
}

}  // namespace

int runCli(int argc, char* argv[]) {
  QCoreApplication::setApplicationName(kProgram);
  QCoreApplication::setApplicationVersion(QString::fromLatin1(kVersion));
  bool gui = false;  // the commands that draw (Command::needsGui) get a QApplication
  for (const Command& command : commands()) {
    if (argc > 1 && std::string_view(argv[1]) == command.name) gui = command.needsGui;
  }
  ensureRuntimeDir();
  const std::unique_ptr<QCoreApplication> app = makeApplication(argc, argv, gui);
  const LeakCheckBeforeTeardown leakCheck;  // destroyed before `app`
  QStringList args = QCoreApplication::arguments();

  if (args.size() < 2) {
    std::cerr << globalHelp().toStdString();
    return usageError(QStringLiteral("no command given"), nullptr);
  }
  const QString first = args.at(1);
  if (first == QLatin1String("-h") || first == QLatin1String("--help") ||
      first == QLatin1String("help")) {
    if (args.size() > 2) {
      if (const Command* c = findCommand(args.at(2))) {
        return runCommand(*c, {args.at(0), QStringLiteral("--help")});
      }
      return usageError(unknownCommand(args.at(2)), nullptr);
    }
    printOut(globalHelp());
    return kExitOk;
  }
  if (first == QLatin1String("-v") || first == QLatin1String("--version")) {
    printOut(kProgram + " " + QCoreApplication::applicationVersion() + "\n");
    return kExitOk;
  }
  if (first.startsWith('-')) {
    return usageError(
        QStringLiteral("unknown option \"%1\"; give a command first (run, export, shapes, torch)")
            .arg(first),
        nullptr);
  }
  const Command* command = findCommand(first);
  if (command == nullptr) return usageError(unknownCommand(first), nullptr);
  args.removeAt(1);
  try {
    return runCommand(*command, args);
  } catch (const UsageError& e) {
    return usageError(QString::fromStdString(e.what()), command);
  } catch (const InvalidInput& e) {
    printError(QString::fromStdString(e.what()));
    return kExitInvalidInput;
  } catch (const std::exception& e) {
    printError(QStringLiteral("%1 failed: %2").arg(first, QString::fromStdString(e.what())));
    return kExitInvalidInput;
  }
}

}  // namespace mhaviz::cli
