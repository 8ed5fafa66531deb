#include "shell/about_box.h"

#include "runs/torch_part_loader.h"

#include "device/device_discovery.h"
#include "torchpart/torch_part.h"

#include <QMessageBox>
#include <QStringList>

#include "memscope_version.h"

namespace memscope {

QString AboutBox::text() {
    // The devices are LibTorch's: loaded here if the window has not loaded the part yet.
    QStringList devices;
    if (TorchPart* part = TorchPartLoader::part()) {
        const DeviceDiscovery& discovery = part->devices();
        for (const auto& d : discovery.devices()) {
            devices << QString::fromStdString(d.toText()).toHtmlEscaped();
        }
        devices
            << tr("CUDA: %1").arg(QString::fromStdString(discovery.cudaStatus()).toHtmlEscaped())
            << tr("HIP: %1").arg(QString::fromStdString(discovery.hipStatus()).toHtmlEscaped());
    } else {
        devices << TorchPartLoader::outcome().message().toHtmlEscaped();
    }
    return tr("<h3>%1 %2</h3>"
              "<p>A memory profiler for Tiny LLaMA training: it records every tensor allocation "
              "and shows where the memory goes.</p>"
              "<p>Qt %3<br/>LibTorch %4</p><p>Devices:<br/>%5</p>")
        .arg(QStringLiteral(MEMSCOPE_NAME), QStringLiteral(MEMSCOPE_VERSION),
             QString::fromLatin1(qVersion()), QStringLiteral(MEMSCOPE_LIBTORCH_VERSION),
             devices.join(QStringLiteral("<br/>")));
}

void AboutBox::show(QWidget* parent) {
    QMessageBox::about(parent, tr("About Memscope"), text());
}

}  // namespace memscope
