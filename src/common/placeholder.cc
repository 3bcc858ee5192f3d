namespace pmixpp { [[maybe_unused]] static int common_placeholder; }
