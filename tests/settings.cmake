# The libraries and tools change no environment variable (docs/settings.md): setenv races other
# threads' getenv and leaks into children; a setting is changed with pm_set_setting instead.
add_test(NAME settings.no_setenv_in_libraries_or_tools
         COMMAND sh -c "! grep -rnE '(^|[^_a-z])(setenv|unsetenv|putenv|clearenv)[ ]*[(]' \
                          --include=*.c --include=*.cpp --include=*.h --exclude-dir=tests src compat"
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
