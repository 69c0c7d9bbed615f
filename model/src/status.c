/* status.c - names of the API status codes. */
#include "tcsim.h"

const char *tc_strerror(tc_status s)
{
    switch (s) {
    case TC_OK:           return "success";
    case TC_EINVAL:       return "invalid argument";
    case TC_EFORMAT:      return "bit pattern does not fit its format";
    case TC_ESHAPE:       return "shape not supported by this profile";
    case TC_ENOMEM:       return "out of memory";
    case TC_EIO:          return "input/output error";
    case TC_EUNSUPPORTED: return "combination not supported";
    case TC_EBUSY:        return "busy: try again in a later cycle";
    }
    return "unknown status";
}
