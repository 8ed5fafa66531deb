// Device discovery on any machine: the CPU is always there and measured, the HIP runtime is
// either absent, present with no AMD GPU, or lists GPUs with names and memory; the JSON has the
// documented schema; driver names find their database entries.

#include "device/device_discovery.h"
#include "device/hip_runtime.h"
#include "predict/device_database.h"

#include <nlohmann/json.hpp>

#include <QRegularExpression>
#include <QtTest/QtTest>

#include <cstddef>

// The real HIP header, where installed, checks HipRuntime's copy of the struct layout.
#if __has_include(<hip/hip_runtime_api.h>)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#define MEMSCOPE_HAVE_HIP_HEADER 1
#endif

using namespace memscope;

namespace {

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

// The forms HipRuntime::Result::statusLine documents.
bool isHipStatusLine(const std::string& line) {
    static const QRegularExpression form(
        QStringLiteral("^(HIP runtime not found|HIP runtime( [0-9.]+)? \\(.+\\): "
                       "(no AMD GPU|[1-9][0-9]* AMD GPUs?|error: .+))$"));
    return form.match(QString::fromStdString(line)).hasMatch();
}

DeviceDatabase database() {
    return DeviceDatabase::load(MEMSCOPE_SOURCE_DIR "/resources/devices.yaml");
}

}  // namespace

class TestDeviceDiscovery : public QObject {
    Q_OBJECT

  private slots:
    void cpuIsAlwaysListedAndMeasured() {
        DeviceDiscovery::Options options;
        options.device_db = MEMSCOPE_SOURCE_DIR "/resources/devices.yaml";
        const auto d = DeviceDiscovery::discover(options);
        QVERIFY(!d.devices().empty());
        const auto& cpu = d.devices().front();
        QCOMPARE(q(cpu.kind), QStringLiteral("cpu"));
        QCOMPARE(q(cpu.torch_device), QStringLiteral("cpu"));
        QVERIFY(!cpu.name.empty());
        QVERIFY(cpu.cores > 0);
        QVERIFY(cpu.total_memory_bytes > 0);
        QVERIFY(cpu.free_memory_bytes > 0 && cpu.free_memory_bytes <= cpu.total_memory_bytes);
        QVERIFY(cpu.peak_flops > 0);
        QVERIFY(cpu.peak_bandwidth > 0);
        QVERIFY(!cpu.peak_flops_method.empty());
        QVERIFY(cpu.database_entry.has_value());
        QCOMPARE(q(cpu.database_entry->name), QStringLiteral("CPU"));
        // Exactly one CPU, and every GPU knows what it is.
        int cpus = 0;
        for (const auto& device : d.devices()) {
            cpus += device.kind == "cpu";
            if (device.isGpu()) {
                QVERIFY(device.kind == "cuda" || device.kind == "hip");
                QVERIFY(!device.name.empty());
            }
        }
        QCOMPARE(cpus, 1);
        QVERIFY(isHipStatusLine(d.hipStatus()));
        QVERIFY(!d.cudaStatus().empty());
    }

    void withoutMeasuringPeaks() {
        DeviceDiscovery::Options options;
        options.measure_peaks = false;
        const auto d = DeviceDiscovery::discover(options);
        QCOMPARE(d.devices().front().peak_flops, 0.0);
        QVERIFY(d.devices().front().cores > 0);
    }

    void hipStatusHasADocumentedForm() {
        const auto hip = HipRuntime::query();
        const auto line = hip.statusLine();
        QVERIFY2(isHipStatusLine(line), line.c_str());
        switch (hip.status) {
            case HipRuntime::Status::NotFound:
                QCOMPARE(q(line), QStringLiteral("HIP runtime not found"));
                QVERIFY(hip.devices.empty());
                break;
            case HipRuntime::Status::NoDevice:
                // No AMD GPU is not an error.
                QVERIFY(line.find("no AMD GPU") != std::string::npos);
                QVERIFY(hip.devices.empty());
                break;
            case HipRuntime::Status::Ok:
                QVERIFY(!hip.devices.empty());
                for (const auto& device : hip.devices) {
                    QVERIFY(!device.name.empty());
                    QVERIFY(device.arch.rfind("gfx", 0) == 0);
                    QVERIFY(device.total_bytes > 0);
                }
                break;
            case HipRuntime::Status::Error:
                QVERIFY(!hip.error.empty());
                break;
        }
    }

    void missingHipLibraryIsNotAnError() {
        const auto hip = HipRuntime::query("/nonexistent/libamdhip64.so");
        QVERIFY(hip.status == HipRuntime::Status::NotFound);
        QCOMPARE(q(hip.statusLine()), QStringLiteral("HIP runtime not found"));
        QVERIFY(hip.devices.empty());

        DeviceDiscovery::Options options;
        options.measure_peaks = false;
        options.hip_library = "/nonexistent/libamdhip64.so";
        const auto d = DeviceDiscovery::discover(options);
        QCOMPARE(q(d.hipStatus()), QStringLiteral("HIP runtime not found"));
        for (const auto& device : d.devices()) {
            QVERIFY(device.kind != "hip");
        }
    }

    void hipPropertiesLayoutMatchesTheHeader() {
#ifdef MEMSCOPE_HAVE_HIP_HEADER
        using P = HipRuntime::PropertiesPrefix;
        QCOMPARE(offsetof(P, name), offsetof(hipDeviceProp_t, name));
        QCOMPARE(offsetof(P, totalGlobalMem), offsetof(hipDeviceProp_t, totalGlobalMem));
        QCOMPARE(offsetof(P, arch), offsetof(hipDeviceProp_t, arch));
        QCOMPARE(offsetof(P, gcnArch), offsetof(hipDeviceProp_t, gcnArch));
        QCOMPARE(offsetof(P, gcnArchName), offsetof(hipDeviceProp_t, gcnArchName));
        QVERIFY(sizeof(hipDeviceProp_t) <= HipRuntime::k_properties_buffer_bytes);
#else
        QSKIP("no HIP header on this machine (libamdhip64-dev)");
#endif
    }

    void jsonSchema() {
        DeviceDiscovery::Options options;
        options.measure_peaks = false;
        options.device_db = MEMSCOPE_SOURCE_DIR "/resources/devices.yaml";
        const auto d = DeviceDiscovery::discover(options);
        const auto j = d.toJson();
        QVERIFY(j.is_object());
        QVERIFY(j.at("devices").is_array());
        QCOMPARE(j.at("devices").size(), d.devices().size());
        QCOMPARE(q(j.at("hip").get<std::string>()), q(d.hipStatus()));
        QCOMPARE(q(j.at("cuda").get<std::string>()), q(d.cudaStatus()));
        for (const auto& device : j.at("devices")) {
            const auto kind = device.at("kind").get<std::string>();
            QVERIFY(kind == "cpu" || kind == "cuda" || kind == "hip");
            QVERIFY(device.at("name").is_string());
            QVERIFY(device.at("total_memory_bytes").is_number_integer());
            QVERIFY(device.at("free_memory_bytes").is_null() ||
                    device.at("free_memory_bytes").is_number_integer());
            QVERIFY(device.at("database").is_null() || device.at("database").is_object());
            if (kind == "cpu") {
                QVERIFY(device.at("cores").get<int>() > 0);
                QCOMPARE(q(device.at("database").at("name").get<std::string>()),
                         QStringLiteral("CPU"));
            }
            if (kind == "hip") {
                QVERIFY(device.at("arch").is_string());
            }
        }
        const auto text = d.toText();
        QVERIFY(text.find("cpu  ") == 0);
        QVERIFY(text.find("\nCUDA: " + d.cudaStatus() + "\n") != std::string::npos);
        QVERIFY(text.find("\nHIP: " + d.hipStatus() + "\n") != std::string::npos);
    }

    void driverNamesFindDatabaseEntries_data() {
        QTest::addColumn<QString>("reported");
        QTest::addColumn<double>("gib");
        QTest::addColumn<QString>("entry");
        QTest::newRow("H100 CUDA name") << "NVIDIA H100 80GB HBM3" << 79.6 << "NVIDIA H100 SXM";
        QTest::newRow("A100 80GB") << "NVIDIA A100-SXM4-80GB" << 79.2 << "NVIDIA A100 80GB SXM";
        QTest::newRow("A100 40GB by memory")
            << "NVIDIA A100-SXM4-40GB" << 39.6 << "NVIDIA A100 40GB SXM";
        QTest::newRow("MI300X HIP name") << "AMD Instinct MI300X" << 192.0 << "AMD MI300X";
        QTest::newRow("MI250X die") << "AMD Instinct MI250X" << 64.0 << "AMD MI250X GCD";
        QTest::newRow("exact name") << "NVIDIA H200" << 139.8 << "NVIDIA H200";
        QTest::newRow("unknown GPU") << "NVIDIA GeForce RTX 4090" << 24.0 << "";
        QTest::newRow("A10 is not A100") << "NVIDIA A10" << 22.0 << "NVIDIA A10";
    }

    void driverNamesFindDatabaseEntries() {
        QFETCH(QString, reported);
        QFETCH(double, gib);
        QFETCH(QString, entry);
        const auto db = database();
        const auto* spec = db.match(reported.toStdString(), int64_t(gib * 1024 * 1024 * 1024));
        QCOMPARE(spec ? QString::fromStdString(spec->name) : QString(), entry);
    }
};

QTEST_GUILESS_MAIN(TestDeviceDiscovery)
#include "test_device_discovery.moc"
