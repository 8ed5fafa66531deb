#pragma once

#include <QCoreApplication>
#include <QString>

class QWidget;

namespace memscope {

// Help > About Memscope: the version, Qt's and LibTorch's, and the devices found (as
// `memscope-cli devices` lists them, with the CUDA and HIP status lines).
class AboutBox {
    Q_DECLARE_TR_FUNCTIONS(memscope::AboutBox)

  public:
    // The box's rich text, separate from the modal dialog so that it can be tested.
    static QString text();
    static void show(QWidget* parent);
};

}  // namespace memscope
