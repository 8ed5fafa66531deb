// The options form made from TrainOptionTable's rows (issue 42): each page gets a field per row it
// places, in the table's order, named by the row's key and labelled with the row's label; every
// row a page places round-trips through its field (show, then read gives the same value); the
// Planner's look drops the accelerators; the labels are translated.

#include "common/train_option_fields.h"
#include "model/train_option_table.h"
#include "run/train_options.h"
#include "shell/translation_loader.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QTranslator>
#include <QtTest>

#include <string>
#include <vector>

using namespace memscope;

namespace {

using Placement = FormGroup TrainOptionRow::*;

const std::vector<FormGroup> k_groups = {FormGroup::Model, FormGroup::Run, FormGroup::Numerics,
                                         FormGroup::Device};

// A page of one form per group, as the Run panel and the Planner lay theirs out.
struct Page {
    QWidget widget;
    std::vector<QFormLayout*> forms;
    QList<QWidget*> fields;

    Page(Placement placement, const TrainOptionFields::Look& look) {
        for (const FormGroup group : k_groups) {
            auto* box = new QWidget(&widget);
            auto* form = new QFormLayout(box);
            fields += TrainOptionFields::add(form, placement, group, look);
            forms.push_back(form);
        }
        // The device is text whose items the page gives.
        if (auto* device = widget.findChild<QComboBox*>(QStringLiteral("device"))) {
            device->addItem(QStringLiteral("cpu"), QStringLiteral("cpu"));
            device->addItem(QStringLiteral("cuda:1"), QStringLiteral("cuda:1"));
        }
        for (QFormLayout* form : forms) {
            TrainOptionFields::retranslate(form, look);
        }
    }

    QString labelOf(const char* key) const {
        for (QFormLayout* form : forms) {
            auto* field = widget.findChild<QWidget*>(QLatin1String(key));
            if (auto* label = qobject_cast<QLabel*>(form->labelForField(field))) {
                return label->text();
            }
        }
        return QString();
    }
};

// Options that differ from the preset's in every field a form can hold.
TrainOptions changed() {
    TrainOptions o = TrainOptions::fromPreset("study-tiny");
    const nlohmann::json changes = {
        {"preset", "workshop-default"},
        {"hidden_dim", 48},
        {"num_layers", 3},
        {"num_heads", 6},
        {"num_kv_heads", 2},
        {"intermediate_dim", 1536},
        {"vocab_size", 777},
        {"max_seq_len", 96},
        {"tie_embeddings", !o.model.tie_embeddings},
        {"batch_size", 5},
        {"seq_len", 24},
        {"num_steps", 7},
        {"warmup_steps", 2},
        {"profile_type", "forward"},
        {"optimizer", "sgd"},
        {"learning_rate", 0.0025},
        {"seed", 1234},
        {"dtype", "bf16"},
        {"attention", "memory-efficient"},
        {"checkpointing", "per-block"},
        {"device", "cuda:1"},
        {"threads", 3},
        {"device_memory_limit", int64_t(3) << 30},
    };
    return TrainOptions::withChanges(changes, o);
}

}  // namespace

class TestTrainOptionFields : public QObject {
    Q_OBJECT

  private slots:
    void everyPlacedRowHasOneFieldInTableOrder() {
        for (const Placement placement :
             {&TrainOptionRow::run_panel, &TrainOptionRow::planner_page}) {
            Page page(placement, TrainOptionFields::Look());
            std::vector<std::string> expected;
            for (const FormGroup group : k_groups) {
                for (const TrainOptionRow& row : TrainOptionTable::rows()) {
                    if (row.*placement == group) {
                        expected.push_back(row.key);
                    }
                }
            }
            QCOMPARE(size_t(page.fields.size()), expected.size());
            QVERIFY(!expected.empty());
            for (size_t i = 0; i < expected.size(); ++i) {
                QCOMPARE(page.fields[int(i)]->objectName().toStdString(), expected[i]);
                const TrainOptionRow& row = TrainOptionTable::row(expected[i]);
                QCOMPARE(page.labelOf(row.key), QString::fromUtf8(row.label));
            }
        }
    }

    void fieldsFollowTheRowsTypeAndRange() {
        Page page(&TrainOptionRow::run_panel, TrainOptionFields::Look());
        auto* hidden = page.widget.findChild<QSpinBox*>(QStringLiteral("hidden_dim"));
        QVERIFY(hidden);
        QCOMPARE(int64_t(hidden->minimum()), TrainOptionTable::row("hidden_dim").min);
        QCOMPARE(int64_t(hidden->maximum()), TrainOptionTable::row("hidden_dim").max);
        QVERIFY(hidden->isGroupSeparatorShown());
        QVERIFY(page.widget.findChild<QDoubleSpinBox*>(QStringLiteral("learning_rate")));
        QVERIFY(page.widget.findChild<QCheckBox*>(QStringLiteral("tie_embeddings")));
        QVERIFY(page.widget.findChild<QLineEdit*>(QStringLiteral("device_memory_limit")));
        auto* dtype = page.widget.findChild<QComboBox*>(QStringLiteral("dtype"));
        QVERIFY(dtype);
        QCOMPARE(size_t(dtype->count()), dtypeNames().size());
        QCOMPARE(dtype->itemData(0).toString().toStdString(), dtypeNames().front());
    }

    void everyPlacedRowRoundTripsThroughItsField() {
        const TrainOptions o = changed();
        const nlohmann::json want = o.toJson();
        for (const Placement placement :
             {&TrainOptionRow::run_panel, &TrainOptionRow::planner_page}) {
            Page page(placement, TrainOptionFields::Look());
            TrainOptionFields::show(&page.widget, o, placement);
            const TrainOptions base = TrainOptions::fromPreset("study-small");
            const nlohmann::json got =
                TrainOptionFields::read(&page.widget, base, placement).toJson();
            int checked = 0;
            for (const TrainOptionRow& row : TrainOptionTable::rows()) {
                if (row.*placement == FormGroup::None) {
                    continue;
                }
                QVERIFY2(got.at(row.key) == want.at(row.key),
                         (std::string(row.key) + ": " + got.at(row.key).dump() +
                          " != " + want.at(row.key).dump())
                             .c_str());
                ++checked;
            }
            QCOMPARE(checked, page.fields.size());
        }
    }

    void thePlannersLookDropsTheAccelerators() {
        TrainOptionFields::Look plain;
        plain.mnemonics = false;
        plain.keyboard_tracking = false;
        plain.group_separators = false;
        Page page(&TrainOptionRow::planner_page, plain);
        QCOMPARE(page.labelOf("hidden_dim"), QStringLiteral("Hidden size:"));
        QCOMPARE(QString::fromUtf8(TrainOptionTable::row("hidden_dim").label),
                 QStringLiteral("&Hidden size:"));
        auto* batch = page.widget.findChild<QSpinBox*>(QStringLiteral("batch_size"));
        QVERIFY(batch);
        QVERIFY(!batch->keyboardTracking());
        QVERIFY(!batch->isGroupSeparatorShown());
    }

    // Tooltips end with the option's flags (or hold them where the tip says %1); a size's
    // placeholder says what empty means; choices show their rows' texts, keep their names as
    // data, and the Planner's look shows the names.
    void tipsZeroTextsAndChoiceTextsComeFromTheRows() {
        Page page(&TrainOptionRow::run_panel, TrainOptionFields::Look());
        auto* tie = page.widget.findChild<QWidget*>(QStringLiteral("tie_embeddings"));
        QVERIFY(tie);
        QCOMPARE(tie->toolTip(), QStringLiteral("Share the embedding and output weights "
                                                "(--tie-embeddings / --no-tie-embeddings)"));
        auto* threads = page.widget.findChild<QWidget*>(QStringLiteral("threads"));
        QVERIFY(threads);
        QVERIFY(
            threads->toolTip().startsWith(QStringLiteral("CPU threads for LibTorch (--threads).")));
        auto* limit = page.widget.findChild<QLineEdit*>(QStringLiteral("device_memory_limit"));
        QVERIFY(limit);
        QCOMPARE(limit->placeholderText(), QStringLiteral("no limit"));
        auto* dtype = page.widget.findChild<QComboBox*>(QStringLiteral("dtype"));
        QVERIFY(dtype);
        QCOMPARE(dtype->itemText(dtype->findData(QStringLiteral("bf16"))),
                 QStringLiteral("bf16 (autocast)"));
        QCOMPARE(dtype->itemText(dtype->findData(QStringLiteral("fp32"))), QStringLiteral("fp32"));

        TrainOptionFields::Look names;
        names.choice_texts = false;
        Page planner(&TrainOptionRow::planner_page, names);
        auto* attention = planner.widget.findChild<QComboBox*>(QStringLiteral("attention"));
        QVERIFY(attention);
        QCOMPARE(attention->itemText(attention->findData(QStringLiteral("memory-efficient"))),
                 QStringLiteral("memory-efficient"));
        QVERIFY(!attention->toolTip().isEmpty());
    }

    // The optimizer and its learning rate wait on the profile: enabled only for training, on
    // either page, as the profile changes.
    void fieldsThatNeedAValueFollowIt() {
        for (const Placement placement :
             {&TrainOptionRow::run_panel, &TrainOptionRow::planner_page}) {
            Page page(placement, TrainOptionFields::Look());
            TrainOptionFields::linkNeeds(&page.widget);
            auto* profile = page.widget.findChild<QComboBox*>(QStringLiteral("profile_type"));
            auto* optimizer = page.widget.findChild<QComboBox*>(QStringLiteral("optimizer"));
            QVERIFY(profile && optimizer);
            auto* rate = page.widget.findChild<QWidget*>(QStringLiteral("learning_rate"));
            QCOMPARE(rate != nullptr, placement == &TrainOptionRow::run_panel);
            profile->setCurrentIndex(profile->findData(QStringLiteral("training")));
            QVERIFY(optimizer->isEnabled());
            profile->setCurrentIndex(profile->findData(QStringLiteral("forward")));
            QVERIFY(!optimizer->isEnabled());
            QVERIFY(rate == nullptr || !rate->isEnabled());
            TrainOptions o = changed();
            o.profile = ProfileType::Training;
            TrainOptionFields::show(&page.widget, o, placement);
            QVERIFY(optimizer->isEnabled());
            QVERIFY(rate == nullptr || rate->isEnabled());
        }
    }

    void labelsAreTranslated() {
        QTranslator translator;
        QVERIFY(loadMemscopeTranslation(translator, QLocale(QStringLiteral("de"))));
        // Every row's label has its German in the catalogue (lupdate read the rows).
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            QVERIFY2(!translator.translate("TrainOptionTable", row.label).isEmpty(), row.key);
        }
        QCoreApplication::installTranslator(&translator);
        Page page(&TrainOptionRow::run_panel, TrainOptionFields::Look());
        QCoreApplication::removeTranslator(&translator);
        QCOMPARE(page.labelOf("batch_size"), QStringLiteral("&Batchgröße:"));
        QCOMPARE(page.labelOf("device"), QStringLiteral("Ge&rät:"));
        // ... and so are the tips, the choices' texts and what an empty size means.
        auto* checkpointing = page.widget.findChild<QComboBox*>(QStringLiteral("checkpointing"));
        QVERIFY(checkpointing);
        QCOMPARE(checkpointing->itemText(checkpointing->findData(QStringLiteral("per-block"))),
                 QStringLiteral("Pro Block"));
        QVERIFY(checkpointing->toolTip().startsWith(QStringLiteral("Die Aktivierungen")));
        auto* limit = page.widget.findChild<QLineEdit*>(QStringLiteral("device_memory_limit"));
        QVERIFY(limit);
        QCOMPARE(limit->placeholderText(), QStringLiteral("keine Grenze"));
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            if (row.run_panel != FormGroup::None) {
                QVERIFY2(!translator.translate("TrainOptionTable", row.tip).isEmpty(), row.key);
            }
            for (const auto& [name, text] : row.choice_texts) {
                QVERIFY2(!translator.translate("TrainOptionTable", text).isEmpty(), name);
            }
        }
    }
};

QTEST_MAIN(TestTrainOptionFields)
#include "test_train_option_fields.moc"
