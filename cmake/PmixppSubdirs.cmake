# Adds every immediate subdirectory of DIR that holds a CMakeLists.txt, so that
# a new component, source area or test folder needs no edit of its parent.
function(pmixpp_add_subdirectories_with_cmake dir)
  file(GLOB children LIST_DIRECTORIES true RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}/${dir}"
       "${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*")
  list(SORT children)
  foreach(child IN LISTS children)
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${dir}/${child}/CMakeLists.txt")
      add_subdirectory("${dir}/${child}")
    endif()
  endforeach()
endfunction()
