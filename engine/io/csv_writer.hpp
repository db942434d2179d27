// CSV files of measurement tables, written atomically.
#pragma once

#include "core/error.hpp"
#include "measure/measurement.hpp"

#include <optional>
#include <string>

namespace ndem {

/// Writes the columns of `table` (all the same length) as CSV with a header line; a column
/// shorter than the longest leaves its cells empty. Written to <path>.tmp, then renamed.
std::optional<Error> writeCsv(const std::string& path, const Table& table);

/// File name base of the n-th (0-based) measurement called `name` in a run: "wallForce",
/// "wallForce_2", ... Used by every writer so that the files of runs and sweeps agree.
std::string measurementFileBase(const std::string& name, int occurrence);

/// Writes every table of every measurement of a run into `directory` as
/// <measurement>[_<table>].csv (series as <measurement>.csv), creating the directory.
/// Measurement names repeat (two wallForce measurements): a numeric suffix keeps them apart.
std::optional<Error> writeMeasurementCsvs(const std::string& directory,
                                          const std::vector<MeasurementResult>& results);

}  // namespace ndem
