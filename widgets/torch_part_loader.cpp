#include "torch_part_loader.h"

#include "analysis/torch_part.h"
#include "error_text.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <dlfcn.h>

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
    QString error;
    std::atomic<bool> background{false};
};

LoaderState& state() {
    static LoaderState s;
    return s;
}

QString executableDirectory() {
    if (QCoreApplication::instance()) {
        return QCoreApplication::applicationDirPath();
    }
    return QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/self/exe"))).absolutePath();
}

// Loads the part (the caller holds the state's mutex): the part, or nullptr and `error`.
TorchPart* load(QString* error) {
    const QString path = TorchPartLoader::libraryPath();
    if (path.isEmpty()) {
        *error = TorchPartLoader::tr(
                     "This needs LibTorch, and its part %1 is neither beside memscope nor in "
                     "../lib/memscope (reinstall Memscope)")
                     .arg(QLatin1String(k_library));
        return nullptr;
    }
    // RTLD_GLOBAL: LibTorch's own plugins (c10d backends) find its symbols. Never unloaded:
    // LibTorch's threads and static objects outlive any call.
    void* library = ::dlopen(QFile::encodeName(path).constData(), RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        const char* why = ::dlerror();
        *error = TorchPartLoader::tr("Cannot load %1: %2")
                     .arg(QDir::toNativeSeparators(path),
                          why ? errorText(std::string(why)) : TorchPartLoader::tr("unknown error"));
        return nullptr;
    }
    using Entry = TorchPart* (*)();
    auto entry = reinterpret_cast<Entry>(::dlsym(library, TorchPart::k_entry));
    TorchPart* part = entry ? entry() : nullptr;
    if (!part) {
        *error = TorchPartLoader::tr("%1 has no %2 (a library of another Memscope build?)")
                     .arg(QDir::toNativeSeparators(path), QLatin1String(TorchPart::k_entry));
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
    const QString forced = qEnvironmentVariable("MEMSCOPE_GUI_TORCH_PART");
    if (!forced.isEmpty()) {
        return forced;
    }
    const QDir dir(executableDirectory());
    const QString build_tree = QString::fromUtf8(MEMSCOPE_GUI_TORCH_PART_BUILD_PATH);
    for (const QString& candidate :
         {dir.filePath(QLatin1String(k_library)),
          dir.filePath(QStringLiteral("../lib/memscope/") + QLatin1String(k_library)),
          build_tree}) {
        if (!candidate.isEmpty() && QFileInfo(candidate).isFile()) {
            return QDir::cleanPath(candidate);
        }
    }
    return {};
}

TorchPart* TorchPartLoader::part(QString* error) {
    TorchPartLoader* loader = instance();
    LoaderState& s = state();
    TorchPart* part = nullptr;
    QString why;
    bool loaded_here = false;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        if (!s.attempted) {
            s.part = load(&s.error);
            s.attempted = true;
            loaded_here = true;
        }
        part = s.part;
        why = s.error;
    }
    if (loaded_here) {
        QMetaObject::invokeMethod(
            loader, [loader, ok = part != nullptr, why] { emit loader->ready(ok, why); },
            Qt::QueuedConnection);
    }
    if (!part && error) {
        *error = why;
    }
    return part;
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
