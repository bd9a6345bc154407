/* SPDX-License-Identifier: MIT */
// --timeline: a Printer that passes everything to the printer it wraps and keeps each -I
// interval's counts; after the final counts it writes them as a self-contained HTML chart
// (tools/common/timeline_html.h) into a file opened before counting began.
#pragma once

#include <memory>
#include <string>

#include "output_file.h"
#include "printer.h"
#include "timeline_html.h"

namespace pmcount {

class TimelinePrinter : public Printer {
 public:
  // `file` is open (tools::OutputFile::Open); it is committed after Final.
  TimelinePrinter(std::unique_ptr<Printer> inner, tools::OutputFile *file, long interval_ms);

  std::string BeginIntervals(const Report &report) override;
  std::string Interval(const Report &report, const Snapshot &snapshot) override;
  std::string Final(const Report &report, const Snapshot &snapshot) override;

  // "" once the page is written, else "cannot write PATH: why".
  const std::string &error() const { return error_; }

 private:
  std::unique_ptr<Printer> inner_;
  tools::OutputFile *file_;
  long interval_ms_;
  tools::Timeline timeline_;
  std::string error_;
};

}  // namespace pmcount
