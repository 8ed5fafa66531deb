#include "runs/torch_part_loader.h"

#include "error_text.h"
#include "torchpart/part_library.h"
#include "torchpart/torch_part.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMetaObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <mutex>

// The part this build makes, found when a test or a benchmark runs from the build tree
// (widgets/CMakeLists.txt sets it).
#ifndef MEMSCOPE_GUI_TORCH_PART_BUILD_PATH
#define MEMSCOPE_GUI_TORCH_PART_BUILD_PATH ""
#endif

namespace memscope {

namespace {

constexpr const char* k_library = "memscope-gui-torch.so";

struct LoaderState {
    std::mutex mutex;  // held while loading: a second caller waits for the first
    bool attempted = false;
    std::atomic<TorchPart*> part{nullptr};
    Outcome outcome;  // of loading; written once under the mutex
    std::atomic<bool> background{false};
};

LoaderState& state() {
    static LoaderState s;
    return s;
}

// Loads the part (the caller holds the state's mutex): the part, or nullptr and why not.
TorchPart* load(Outcome& outcome) {
    const QString path = TorchPartLoader::libraryPath();
    if (path.isEmpty()) {
        outcome = Outcome::failure(
            TorchPartLoader::tr(
                "This needs LibTorch, and its part %1 is neither beside memscope nor in "
                "../lib/memscope (reinstall Memscope)")
                .arg(QLatin1String(k_library)));
        return nullptr;
    }
    // Loaded as the CLI loads its part (torchpart/part_library.h).
    const auto loaded =
        PartLibrary::load(QFile::encodeName(path).toStdString(), TorchPart::k_entry);
    if (loaded.failure == PartLibrary::Loaded::Failure::CannotLoad) {
        outcome = Outcome::failure(TorchPartLoader::tr("Cannot load %1: %2")
                                       .arg(QDir::toNativeSeparators(path), errorText(loaded.why)));
        return nullptr;
    }
    using Entry = TorchPart* (*)();
    auto entry = reinterpret_cast<Entry>(loaded.entry);
    TorchPart* part = entry ? entry() : nullptr;
    if (!part) {
        outcome = Outcome::failure(
            TorchPartLoader::tr("%1 has no %2 (a library of another Memscope build?)")
                .arg(QDir::toNativeSeparators(path), QLatin1String(TorchPart::k_entry)));
        return nullptr;
    }
    return part;
}

}  // namespace

TorchPartLoader* TorchPartLoader::instance() {
    // Lives as long as the process, on the application's thread (ready() is emitted there), also
    // when a worker asks first.
    static TorchPartLoader* loader = [] {
        auto* created = new TorchPartLoader;
        if (QCoreApplication* app = QCoreApplication::instance()) {
            created->moveToThread(app->thread());
        }
        return created;
    }();
    return loader;
}

QString TorchPartLoader::libraryName() {
    return QLatin1String(k_library);
}

QString TorchPartLoader::libraryPath() {
    // Beside the executable, in ../lib/memscope, then in this build's tree (a test suite's
    // executable is elsewhere).
    return QFile::decodeName(PartLibrary::find(k_library, "MEMSCOPE_GUI_TORCH_PART",
                                               {MEMSCOPE_GUI_TORCH_PART_BUILD_PATH})
                                 .c_str());
}

TorchPart* TorchPartLoader::part() {
    TorchPartLoader* loader = instance();
    LoaderState& s = state();
    TorchPart* part = nullptr;
    Outcome outcome;
    bool loaded_here = false;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        if (!s.attempted) {
            s.part = load(s.outcome);
            s.attempted = true;
            loaded_here = true;
        }
        part = s.part;
        outcome = s.outcome;
    }
    if (loaded_here) {
        QMetaObject::invokeMethod(
            loader, [loader, outcome] { emit loader->ready(outcome); }, Qt::QueuedConnection);
    }
    return part;
}

Outcome TorchPartLoader::outcome() {
    LoaderState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    return s.outcome;
}

TorchPart* TorchPartLoader::loadedPart() {
    return state().part.load();
}

bool TorchPartLoader::attempted() {
    LoaderState& s = state();
    if (s.part.load()) {
        return true;
    }
    std::unique_lock<std::mutex> lock(s.mutex, std::try_to_lock);
    return lock.owns_lock() && s.attempted;
}

void TorchPartLoader::loadInBackground() {
    instance();  // on the caller's thread, before the worker asks for it
    if (state().background.exchange(true) || attempted()) {
        return;
    }
    // A thread of its own, not one of the global pool's (the views' workers: a run being laid
    // out must not wait for a slot); the application waits for it when it ends.
    auto* pool = new QThreadPool(QCoreApplication::instance());
    pool->setMaxThreadCount(1);
    (void)QtConcurrent::run(pool, [] { part(); });
}

}  // namespace memscope
