// Codecs of the small descriptive structs: proc, proc info, envar, coord,
// geometry, device distance, endpoint, registered attribute.
#include "common/buffer/codec.h"
#include "common/buffer/codec_util.h"

namespace pmixpp::buffer {

namespace {

pmix_status_t pack_proc(Packer &p, const void *element)
{
    return put_proc(p, *static_cast<const pmix_proc_t *>(element));
}

pmix_status_t unpack_proc(Unpacker &u, void *element)
{
    return get_proc(u, static_cast<pmix_proc_t *>(element));
}

pmix_status_t pack_proc_info(Packer &p, const void *element)
{
    const auto *pi = static_cast<const pmix_proc_info_t *>(element);
    return chain([&] { return put_proc(p, pi->proc); }, [&] { return p.put_string(pi->hostname); },
                 [&] { return p.put_string(pi->executable_name); }, [&] { return put_integer(p, pi->pid); },
                 [&] { return put_integer(p, pi->exit_code); }, [&] { return put_integer(p, pi->state); });
}

pmix_status_t unpack_proc_info(Unpacker &u, void *element)
{
    auto *pi = static_cast<pmix_proc_info_t *>(element);
    return chain([&] { return get_proc(u, &pi->proc); }, [&] { return u.get_string(&pi->hostname); },
                 [&] { return u.get_string(&pi->executable_name); }, [&] { return get_integer(u, &pi->pid); },
                 [&] { return get_integer(u, &pi->exit_code); }, [&] { return get_integer(u, &pi->state); });
}

pmix_status_t pack_envar(Packer &p, const void *element)
{
    const auto *ev = static_cast<const pmix_envar_t *>(element);
    return chain([&] { return p.put_string(ev->envar); }, [&] { return p.put_string(ev->value); },
                 [&] { return put_integer(p, ev->separator); });
}

pmix_status_t unpack_envar(Unpacker &u, void *element)
{
    auto *ev = static_cast<pmix_envar_t *>(element);
    return chain([&] { return u.get_string(&ev->envar); }, [&] { return u.get_string(&ev->value); },
                 [&] { return get_integer(u, &ev->separator); });
}

pmix_status_t pack_coord(Packer &p, const void *element)
{
    const auto *c = static_cast<const pmix_coord_t *>(element);
    return chain([&] { return put_integer(p, c->view); },
                 [&] { return pack_array(p, c->coord, c->dims, PMIX_UINT32); });
}

pmix_status_t unpack_coord(Unpacker &u, void *element)
{
    auto *c = static_cast<pmix_coord_t *>(element);
    void *coords = nullptr;
    pmix_status_t rc = chain([&] { return get_integer(u, &c->view); },
                             [&] { return unpack_array(u, &coords, &c->dims, PMIX_UINT32); });
    c->coord = static_cast<uint32_t *>(coords);
    return rc;
}

pmix_status_t pack_geometry(Packer &p, const void *element)
{
    const auto *g = static_cast<const pmix_geometry_t *>(element);
    return chain([&] { return put_integer(p, g->fabric); }, [&] { return p.put_string(g->uuid); },
                 [&] { return p.put_string(g->osname); },
                 [&] { return pack_array(p, g->coordinates, g->ncoords, PMIX_COORD); });
}

pmix_status_t unpack_geometry(Unpacker &u, void *element)
{
    auto *g = static_cast<pmix_geometry_t *>(element);
    void *coords = nullptr;
    pmix_status_t rc = chain([&] { return get_integer(u, &g->fabric); }, [&] { return u.get_string(&g->uuid); },
                             [&] { return u.get_string(&g->osname); },
                             [&] { return unpack_array(u, &coords, &g->ncoords, PMIX_COORD); });
    g->coordinates = static_cast<pmix_coord_t *>(coords);
    return rc;
}

pmix_status_t pack_device_distance(Packer &p, const void *element)
{
    const auto *d = static_cast<const pmix_device_distance_t *>(element);
    return chain([&] { return p.put_string(d->uuid); }, [&] { return p.put_string(d->osname); },
                 [&] { return put_integer(p, d->type); }, [&] { return put_integer(p, d->mindist); },
                 [&] { return put_integer(p, d->maxdist); });
}

pmix_status_t unpack_device_distance(Unpacker &u, void *element)
{
    auto *d = static_cast<pmix_device_distance_t *>(element);
    return chain([&] { return u.get_string(&d->uuid); }, [&] { return u.get_string(&d->osname); },
                 [&] { return get_integer(u, &d->type); }, [&] { return get_integer(u, &d->mindist); },
                 [&] { return get_integer(u, &d->maxdist); });
}

pmix_status_t pack_endpoint(Packer &p, const void *element)
{
    const auto *e = static_cast<const pmix_endpoint_t *>(element);
    return chain([&] { return p.put_string(e->uuid); }, [&] { return p.put_string(e->osname); },
                 [&] { return p.put_bytes(e->endpt.bytes, e->endpt.size); });
}

pmix_status_t unpack_endpoint(Unpacker &u, void *element)
{
    auto *e = static_cast<pmix_endpoint_t *>(element);
    return chain([&] { return u.get_string(&e->uuid); }, [&] { return u.get_string(&e->osname); },
                 [&] { return u.get_bytes(&e->endpt.bytes, &e->endpt.size); });
}

pmix_status_t pack_regattr(Packer &p, const void *element)
{
    const auto *r = static_cast<const pmix_regattr_t *>(element);
    return chain([&] { return p.put_string(r->name); }, [&] { return put_key(p, r->string); },
                 [&] { return put_integer(p, r->type); }, [&] { return p.put_argv(r->description); });
}

pmix_status_t unpack_regattr(Unpacker &u, void *element)
{
    auto *r = static_cast<pmix_regattr_t *>(element);
    return chain([&] { return u.get_string(&r->name); }, [&] { return get_key(u, r->string); },
                 [&] { return get_integer(u, &r->type); }, [&] { return u.get_argv(&r->description); });
}

constexpr Codec kStructCodecs[] = {
    {PMIX_PROC, sizeof(pmix_proc_t), 8, pack_proc, unpack_proc},
    {PMIX_PROC_INFO, sizeof(pmix_proc_info_t), 25, pack_proc_info, unpack_proc_info},
    {PMIX_ENVAR, sizeof(pmix_envar_t), 9, pack_envar, unpack_envar},
    {PMIX_COORD, sizeof(pmix_coord_t), 5, pack_coord, unpack_coord},
    {PMIX_GEOMETRY, sizeof(pmix_geometry_t), 20, pack_geometry, unpack_geometry},
    {PMIX_DEVICE_DIST, sizeof(pmix_device_distance_t), 20, pack_device_distance, unpack_device_distance},
    {PMIX_ENDPOINT, sizeof(pmix_endpoint_t), 16, pack_endpoint, unpack_endpoint},
    {PMIX_REGATTR, sizeof(pmix_regattr_t), 14, pack_regattr, unpack_regattr},
};

}  // namespace

CodecSpan struct_codecs()
{
    return {kStructCodecs, sizeof kStructCodecs / sizeof kStructCodecs[0]};
}

}  // namespace pmixpp::buffer
