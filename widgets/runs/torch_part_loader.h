#pragma once

#include "outcome.h"

#include <QObject>
#include <QString>

namespace memscope {

class TorchPart;

// Finds and loads the GUI's LibTorch part (memscope-gui-torch.so: live runs, the devices
// LibTorch sees, the CPU's measured peaks, sweeps; torchpart/torch_part.h), so that the GUI links
// no LibTorch and opens and draws a run without loading its ~300 shared libraries (issue 31).
// Loaded once per process, the first time part() is called or in the background after the
// window shows (loadInBackground); never unloaded. A part that is missing or cannot be loaded
// makes what needs it fail with one message naming the library; viewing runs goes on.
class TorchPartLoader : public QObject {
    Q_OBJECT

  public:
    // The one loader (on the thread that first asks for it: the GUI thread in the GUI).
    static TorchPartLoader* instance();

    // The part, loaded now if it was not yet (blocks while another thread loads it); nullptr
    // when it cannot be loaded (outcome() says why). Any thread.
    static TorchPart* part();
    // How loading ended: ok when the part is loaded or loading was not tried yet, else failed
    // with the reason naming the library. Never loads; waits only while another thread loads.
    // Any thread.
    static Outcome outcome();
    // The part if it is loaded already, else nullptr; never loads or waits. Any thread.
    static TorchPart* loadedPart();
    // Whether loading ended, loaded or not (then part() answers at once).
    static bool attempted();
    // Loads the part on a worker thread unless that was done or started; ready() follows.
    static void loadInBackground();

    // Where the part is looked for: MEMSCOPE_GUI_TORCH_PART when set, else beside the
    // executable (a build tree), in ../lib/memscope (an install), and in this build's tree.
    // Empty when none of those exists.
    static QString libraryPath();
    // The library's file name, for messages.
    static QString libraryName();

  signals:
    // Loading ended (on the loader's thread, after part() returned to whoever loaded it):
    // ok, or failed with the reason.
    void ready(const memscope::Outcome& outcome);

  private:
    TorchPartLoader() = default;
};

}  // namespace memscope
