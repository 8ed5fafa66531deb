#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memscope {

// Text the tables, reports, summaries and run metadata share.

// value with exactly digits decimals ("%.*f"): formatFixed(3, 0) is "3", formatFixed(0.5, 2)
// is "0.50".
std::string formatFixed(double value, int digits);

// Bytes in megabytes as the exercises count them (1024² bytes to the MB, no unit): one decimal
// from 10 MB, two from 0.1 MB (and for 0), four below, so that tiny runs do not read "0.00".
// The report's and the seed tables' MB cells.
inline constexpr double kBytesPerMiB = 1024.0 * 1024.0;
std::string formatMegabytes(int64_t bytes);

// A whole number with its digits grouped by commas: 2617600 -> "2,617,600", -1234 -> "-1,234".
std::string withThousands(int64_t value);

// The current time in UTC as ISO 8601 to the second, "2026-11-25T04:58:00Z" (a run's and a
// sweep's started_at).
std::string utcTimestampNow();

// `text` without its leading and trailing spaces and tabs (and, with `all_space`, any other
// white space: newlines, carriage returns, ...).
std::string trimmedText(const std::string& text, bool all_space = false);

// "fp32, bf16, fp16": names as error messages list them.
std::string joinedNames(const std::vector<std::string>& names);

// `text` read whole as a base-10 whole number ("42", "-1"; leading blanks are read past), or
// none: empty, anything after the digits, or outside int64_t. Options and environment
// variables read their numbers with it.
std::optional<int64_t> parseWholeNumber(const std::string& text);

}  // namespace memscope
