#pragma once

#include "explain/module_table.h"
#include "report/report_run.h"
#include "report/size_table_chapter.h"
#include "studies/seed_tables.h"

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace memscope::report_detail {

// The Markdown report ReportWriter writes, chapter by chapter: the runs and their peaks, the
// modules, growth and the missing runs (report.cpp), the workshop's exercise 2
// (report_workshop.cpp) and CS336's memory questions (report_cs336.cpp). Every chapter writes
// to one stream and names the runs still missing through want().
class Report {
  public:
    Report(const std::vector<Trace>& traces, const std::vector<std::string>& names,
           const std::vector<std::map<std::string, std::string>>& sizes);

    std::string write();

  private:
    void table(const Table& t) { m_out << TableExporter::toMarkdown(t) << "\n"; }

    // The exercise table `kind` over `runs`, as a sweep of them shows it, and what its columns
    // mean; false when none of the runs makes a row of it.
    bool seedTable(SeedTables::Kind kind, const std::vector<const Run*>& runs) {
        const Table t = SeedTables::make(kind, asPoints(runs), TableExporter::Units::Readable);
        if (t.rows.empty()) {
            return false;
        }
        table(t);
        const std::string note = SeedTables::note(kind);
        if (!note.empty()) {
            m_out << note << "\n\n";
        }
        return true;
    }

    void want(const std::string& why, const std::string& command) {
        const std::string line = why + ": `" + command + "`";
        if (m_missingSeen.insert(command).second) {
            m_missing.push_back(line);
        }
    }

    std::vector<const Run*> select(const std::function<bool(const Run&)>& keep) const {
        std::vector<const Run*> out;
        for (const auto& r : m_runs) {
            if (keep(r)) {
                out.push_back(&r);
            }
        }
        return out;
    }

    static std::string signedPercent(double change);

    static std::string samples(const Run& r);

    // ---- runs and peaks -------------------------------------------------------------------

    void runsSection();

    // Under a run's "ran out of memory" bullet: capacity or fragmentation, the categories that
    // filled the device and the modules that held it (OomExplanation, issue 41).
    void oomExplanation(const Run& r);

    void peakSection();

    // ---- modules --------------------------------------------------------------------------

    // Which modules hold the memory at the peak (explain/module_table.h), for the run with the
    // highest peak among those whose stacks name modules; for a run of the built-in trainer, the
    // bytes each block saved for backward beside the planner's per-layer figure (MemoryModel
    // with one layer fewer: what one more layer adds to the activations at the end of forward).
    void growthSection();

    void modulesSection();

    // The bytes each Tiny LLaMA block saved for backward beside the planner's per-layer figure.
    void savedPerBlock(const Run& r, const ModuleTable& modules);

    static std::string join(const std::vector<std::string>& parts, const std::string& sep);

    // ---- workshop exercise 2 --------------------------------------------------------------

    void workshopSection();

    // The exercise's questions 2, 3 and 5 (where is peak memory consumed, the primary target,
    // the optimization with the biggest benefit), answered for the training run with the highest
    // peak: from its Modules view at the peak (explain/module_table.h) and the planner's peak with
    // each optimization applied alone (MemoryModel, exact for the CPU trainer).
    void memoryQuestions(const std::vector<const Run*>& runs);

    static void fillFromPreset(Run& t);

    static std::string groupTitle(const Run& r, bool with_seq, bool with_batch);

    void batchScaling(const std::vector<const Run*>& runs);

    void spikes(const std::vector<const Run*>& runs);

    void seqScaling(const std::vector<const Run*>& runs);

    void topOperators(const std::vector<const Run*>& runs);

    // ---- largest allocations --------------------------------------------------------------

    void largestAllocations(const Run& r, size_t groups_shown);

    // ---- CS336 ----------------------------------------------------------------------------

    void cs336Section();

    void contextLengths();

    void mixedPrecision(const std::vector<const Run*>& cs336_runs);

    void residualStream();

    void largestForCs336(std::vector<const Run*> runs);

    // A recorded configuration says; a run without one is forward-only when it has no backward.
    static bool forwardOnly(const Run& r);

    void missingSection();

    std::vector<Run> m_runs;
    std::vector<SizeTableChapter::SizedRun> m_sized;  // runs without a configuration, sized
    std::ostringstream m_out;
    std::vector<std::string> m_missing;
    std::set<std::string> m_missingSeen;
};

}  // namespace memscope::report_detail
