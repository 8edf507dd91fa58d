# Copies the screenshots the Chromium tests saved (test_cli_viewer.cpp, test_cli_animate.cpp)
# into docs/figures/; run by the target docs_screenshots after
# `ctest --test-dir build -R CliAnimate.Chromium` (or the whole suite) has made them.
#   cmake -DFROM=build/docs_screenshots -DTO=docs/figures -P copy_screenshots.cmake
set(expected viewer_flywheel.png viewer_slider_crank.png viewer_study.png viewer_fourbar.png
    animation_slider_crank.png)
foreach(name IN LISTS expected)
  if(NOT EXISTS "${FROM}/${name}")
    message(FATAL_ERROR "${FROM}/${name} is missing: run the Chromium tests first "
                        "(ctest --test-dir build -R CliAnimate.Chromium)")
  endif()
  file(COPY_FILE "${FROM}/${name}" "${TO}/${name}")
  message(STATUS "docs/figures/${name}")
endforeach()
