# Warnings on every target of ours; -Werror except under sanitizers, whose
# instrumentation can trigger warnings we do not control.
function(sweep_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(NOT SWEEP_SANITIZE)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(SWEEP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
