// The headless browser the page tests load kinevo's HTML pages in: Debian's
// chromium-headless-shell (Chromium's "old" headless mode, a browser without the desktop UI),
// else the full Chromium in its headless mode. Both take the same switches and draw WebGL with
// SwiftShader; the shell starts in about a third of the time (it loads no omnibox, extensions or
// sign-in services), which was most of each page test's wall time (docs/build.md).
#pragma once

#include <filesystem>
#include <string>

namespace kinevo::test {

inline std::string headless_browser() {
  for (const char* shell : {"/usr/bin/chromium-headless-shell", "/usr/bin/chromium"}) {
    if (std::filesystem::exists(shell)) return shell;
  }
  return {};
}

inline bool headless_browser_present() {
  return !headless_browser().empty();
}

// The command line up to the page: a fresh profile at `profile`, nothing reaching the network,
// software WebGL, a fixed window.
inline std::string headless_browser_command(const std::filesystem::path& profile) {
  std::filesystem::remove_all(profile);
  std::filesystem::create_directories(profile);
  const std::string browser = headless_browser();
  const bool shell = browser.ends_with("headless-shell");
  return browser + (shell ? "" : " --headless") +
         " --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader"
         " --disable-quic --no-first-run --disable-background-networking"
         " --disable-component-update --disable-sync --hide-scrollbars --window-size=1000,800"
         " --user-data-dir=" +
         profile.string();
}

}  // namespace kinevo::test
