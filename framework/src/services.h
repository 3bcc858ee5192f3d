// The core services table handed to every component hook.
#ifndef PMIXPP_FRAMEWORK_SERVICES_H
#define PMIXPP_FRAMEWORK_SERVICES_H

#include <pmixpp/component.h>

namespace pmixpp::framework {

const pmixpp_services_t *services_table();

void set_services_event_base(void *event_base);

}  // namespace pmixpp::framework

#endif
