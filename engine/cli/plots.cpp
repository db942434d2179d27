#include "plots.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ndem::cli {

namespace {
std::string inQuotes(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// Gnuplot's enhanced text takes only one character after '_' as subscript: N_it needs braces.
std::string label(std::string s) {
    for (size_t at = s.find("N_it"); at != std::string::npos; at = s.find("N_it", at + 6))
        s.replace(at, 4, "N_{it}");
    return inQuotes(s);
}

// Files beside the script are named relative to it, so a committed report's script runs anywhere.
std::string beside(const std::filesystem::path& dir, const std::string& file) {
    const std::filesystem::path f(file);
    return inQuotes(f.parent_path() == dir ? f.filename().string() : file);
}
}  // namespace

bool gnuplotAvailable() {
    return std::system("gnuplot --version > /dev/null 2>&1") == 0;
}

std::string drawPlots(const std::vector<Plot>& plots, const std::string& scriptPath) {
    std::ofstream gp(scriptPath);
    if (!gp) return "cannot write " + scriptPath;
    gp << "set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'\n"
          "set datafile separator ','\nset key top left\nset grid\n"
          "set datafile missing 'nan'\n";
    const std::filesystem::path dir = std::filesystem::path(scriptPath).parent_path();
    for (const Plot& p : plots) {
        gp << "set output " << beside(dir, p.png) << "\n"
           << "set title " << label(p.title) << "\n"
           << "set xlabel " << label(p.xLabel) << "\nset ylabel " << label(p.yLabel) << "\n"
           << (p.logX ? "set logscale x\n" : "unset logscale x\n")
           << (p.logY ? "set logscale y\n" : "unset logscale y\n")
           // One plot's arrows and ranges are not the next one's.
           << "unset arrow\nset autoscale\n";
        for (const std::string& e : p.extra)
            gp << e << "\n";
        gp << "plot ";
        for (size_t i = 0; i < p.lines.size(); ++i) {
            const PlotLine& l = p.lines[i];
            gp << (i ? ", \\\n     " : "");
            if (!l.function.empty())
                gp << l.function << " with lines dashtype 2 title " << label(l.title);
            else
                gp << beside(dir, l.csv) << " using " << l.xColumn << ":" << l.yColumn
                   << " every ::1 with " << l.style << " title " << label(l.title);
        }
        gp << "\n";
    }
    gp.close();
    const std::string script = std::filesystem::path(scriptPath).filename().string();
    const std::string cmd = "cd " + inQuotes(dir.empty() ? std::string(".") : dir.string()) +
                            " && gnuplot " + inQuotes(script) + " > " + inQuotes(script + ".log") +
                            " 2>&1";
    if (std::system(cmd.c_str()) != 0) return "gnuplot failed, see " + scriptPath + ".log";
    return "";
}

}  // namespace ndem::cli
