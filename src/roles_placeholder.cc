namespace pmixpp { [[maybe_unused]] static int roles_placeholder; }
