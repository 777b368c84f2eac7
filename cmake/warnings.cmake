# Warnings on every target of ours; -Werror except under sanitizers, whose
# instrumentation can trigger warnings we do not control.
function(sweep_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(NOT SWEEP_SANITIZE)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Under sanitizers the standard library checks its preconditions too
# (_GLIBCXX_ASSERTIONS: an index or a span's first(n) within its size, front()
# of something not empty): a copy into a span too short for it wrote within
# make_polygon's stack scratch, where AddressSanitizer sees no overflow.
if(SWEEP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_definitions(_GLIBCXX_ASSERTIONS)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
