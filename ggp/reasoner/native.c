/* The runtime of a compiled machine: the Python module around one game's generated C.
 *
 * ggp/reasoner/ccode.py writes the game part (g_analyze, g_goals, n_trans,
 * r<k>_trans and the constants ROLES, NB, NW, NMOVES, ...); this file follows it in one
 * translation unit, compiled by ggp/reasoner/compiled.py with MODULE_NAME defined. States
 * cross the boundary as bytes of NW little-endian 64-bit words (fluent k: bit k % 64 of word
 * k / 64); joint moves as tuples of move indices, one per role.
 *
 * Random playouts draw exactly as ggp.reasoner.play.random_joint_move does: for each role in
 * order with more than one legal move, rng.randrange(n). With direct=1 the draws are made on the
 * random.Random object's own Mersenne Twister state, as CPython's randrange(n) makes them
 * (getrandbits(n.bit_length()) until below n); compiled.py checks that this matches the running
 * Python before passing direct=1, else every draw calls rng.randrange.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

/* ---- states and joint moves across the boundary ------------------------------------------ */

static int read_state(PyObject *obj, uint64_t *s) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != NW * 8) {
        PyErr_SetString(PyExc_ValueError, "a state is bytes of the machine's word count");
        return -1;
    }
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(obj);
    for (int i = 0; i < NW; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | b[8 * i + j];
        s[i] = w;
    }
    return 0;
}

static PyObject *write_state(const uint64_t *s) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, NW * 8);
    if (!out) return NULL;
    unsigned char *b = (unsigned char *)PyBytes_AS_STRING(out);
    for (int i = 0; i < NW; i++)
        for (int j = 0; j < 8; j++) b[8 * i + j] = (unsigned char)(s[i] >> (8 * j));
    return out;
}

static int read_joint(PyObject *obj, int *J) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != ROLES) {
        PyErr_SetString(PyExc_ValueError, "a joint move is a tuple of one move index per role");
        return -1;
    }
    for (int r = 0; r < ROLES; r++) {
        long m = PyLong_AsLong(PyTuple_GET_ITEM(obj, r));
        if (m == -1 && PyErr_Occurred()) return -1;
        if (m < 0 || m >= NMOVES[r]) {
            PyErr_SetString(PyExc_ValueError, "a move index is out of range");
            return -1;
        }
        J[r] = (int)m;
    }
    return 0;
}

static PyObject *int_list(const int *values, int count) {
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (!v) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static PyObject *ones(const uint8_t *mv, int count) {
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) {
        if (mv[i]) {
            PyObject *v = PyLong_FromLong(i);
            if (!v || PyList_Append(list, v) < 0) { Py_XDECREF(v); Py_DECREF(list); return NULL; }
            Py_DECREF(v);
        }
    }
    return list;
}

/* ---- the random number generator ---------------------------------------------------------- */

/* The layout of CPython's random.Random (Modules/_randommodule.c); compiled.py checks it. */
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[624];
} MTObject;

static uint32_t mt_next(MTObject *r) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t *mt = r->state, y;
    if (r->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1u];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

typedef struct {
    PyObject *rng;      /* the random.Random */
    PyObject *randrange; /* its bound randrange, when not drawing directly */
} Draw;

/* A uniform index below n (n >= 2), as rng.randrange(n); -1 with an exception set on error. */
static int draw(Draw *d, int n) {
    if (!d->randrange) {
        int k = 0;
        while ((n >> k) != 0) k++;
        uint32_t x;
        do { x = mt_next((MTObject *)d->rng) >> (32 - k); } while (x >= (uint32_t)n);
        return (int)x;
    }
    PyObject *arg = PyLong_FromLong(n);
    if (!arg) return -1;
    PyObject *got = PyObject_CallOneArg(d->randrange, arg);
    Py_DECREF(arg);
    if (!got) return -1;
    long v = PyLong_AsLong(got);
    Py_DECREF(got);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= n) {
        PyErr_SetString(PyExc_ValueError, "randrange returned a value out of range");
        return -1;
    }
    return (int)v;
}

static int draw_open(Draw *d, PyObject *rng, int direct) {
    d->rng = rng;
    d->randrange = NULL;
    if (!direct) {
        d->randrange = PyObject_GetAttrString(rng, "randrange");
        if (!d->randrange) return -1;
    }
    return 0;
}

static void draw_close(Draw *d) { Py_XDECREF(d->randrange); }

/* What one call needs besides its arguments, on the heap (a large game's arrays would not fit
 * a thread's stack): the derived atoms A, the move-dependent slots mv, the legal moves n and L,
 * and two states. */
typedef struct {
    uint8_t *A, *mv;
    int *L, *n;
    uint64_t *s, *o;
} Scratch;

static int scratch_open(Scratch *x) {
    x->A = PyMem_Malloc(NA);
    x->mv = PyMem_Malloc(MV_MAX);
    x->L = PyMem_Malloc(sizeof(int) * TOTAL_MOVES);
    x->n = PyMem_Malloc(sizeof(int) * (ROLES + 1));
    x->s = PyMem_Malloc(sizeof(uint64_t) * NW);
    x->o = PyMem_Malloc(sizeof(uint64_t) * NW);
    if (x->A && x->mv && x->L && x->n && x->s && x->o) return 0;
    PyMem_Free(x->A); PyMem_Free(x->mv); PyMem_Free(x->L); PyMem_Free(x->n); PyMem_Free(x->s); PyMem_Free(x->o);
    PyErr_NoMemory();
    return -1;
}

static void scratch_close(Scratch *x) {
    PyMem_Free(x->A); PyMem_Free(x->mv); PyMem_Free(x->L); PyMem_Free(x->n); PyMem_Free(x->s); PyMem_Free(x->o);
}

/* One random playout from x->s (changed in place); returns 1 terminal, 0 at max_steps, -2 when a
 * role has no legal move in a non-terminal state, -1 on a Python error. */
static int run_playout(Scratch *x, Draw *d, long max_steps, long *steps) {
    int J[ROLES > 0 ? ROLES : 1];
    int *n = x->n, *L = x->L;
    *steps = 0;
    for (;;) {
        if (g_analyze(x->s, n, L, x->A)) return 1;
        if (*steps >= max_steps) return 0;
        for (int r = 0; r < ROLES; r++) {
            if (n[r] == 0) return -2;
            if (n[r] == 1) {
                J[r] = L[MOFF[r]];
            } else {
                int i = draw(d, n[r]);
                if (i < 0) return -1;
                J[r] = L[MOFF[r] + i];
            }
        }
        n_trans(x->s, J, x->o, x->mv, x->A);
        uint64_t *t = x->s; x->s = x->o; x->o = t;
        (*steps)++;
    }
}

/* ---- module functions --------------------------------------------------------------------- */

#define NEED(count)                                                                     \
    if (nargs != (count)) {                                                             \
        PyErr_SetString(PyExc_TypeError, "wrong number of arguments");                  \
        return NULL;                                                                    \
    }

/* Open the scratch area x and read the state argument into x->s (the analysis in x->A). */
#define OPEN_STATE(arg)                                                                 \
    Scratch x;                                                                          \
    if (scratch_open(&x) < 0) return NULL;                                              \
    if (read_state((arg), x.s) < 0) { scratch_close(&x); return NULL; }

static PyObject *legal_lists(const int *n, const int *L) {
    PyObject *lists = PyTuple_New(ROLES);
    if (!lists) return NULL;
    for (int r = 0; r < ROLES; r++) {
        PyObject *l = int_list(L + MOFF[r], n[r]);
        if (!l) { Py_DECREF(lists); return NULL; }
        PyTuple_SET_ITEM(lists, r, l);
    }
    return lists;
}

static PyObject *py_analyze(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(1);
    OPEN_STATE(args[0]);
    int terminal = g_analyze(x.s, x.n, x.L, x.A);
    PyObject *lists = legal_lists(x.n, x.L);
    scratch_close(&x);
    if (!lists) return NULL;
    return Py_BuildValue("(NO)", lists, terminal ? Py_True : Py_False);
}

static PyObject *goal_lists(Scratch *x) {
    int G[TOTAL_GOALS];
    g_goals(x->s, x->n, G);
    PyObject *lists = PyTuple_New(ROLES);
    if (!lists) return NULL;
    for (int r = 0; r < ROLES; r++) {
        PyObject *l = int_list(G + GOFF[r], x->n[r]);
        if (!l) { Py_DECREF(lists); return NULL; }
        PyTuple_SET_ITEM(lists, r, l);
    }
    return lists;
}

static PyObject *py_goals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(1);
    OPEN_STATE(args[0]);
    PyObject *out = goal_lists(&x);
    scratch_close(&x);
    return out;
}

static PyObject *py_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(2);
    int J[ROLES > 0 ? ROLES : 1];
    OPEN_STATE(args[0]);
    PyObject *out = NULL;
    if (read_joint(args[1], J) == 0) {
        g_analyze(x.s, x.n, x.L, x.A);
        n_trans(x.s, J, x.o, x.mv, x.A);
        out = write_state(x.o);
    }
    scratch_close(&x);
    return out;
}

/* Role r's percepts for the joint move J into x->mv, from SEE_AT(r) (every role's at once, and
 * the offsets apart, where the game's percepts are one transition: SEES_SHARED). */
#define SEE_AT(r) (SEES_SHARED ? SEES_OFF[r] : 0)
static void compute_sees(Scratch *x, int r, const int *J) {
    uint64_t ignored[NW];
    ROLE_SEES[r](x->s, J, ignored, x->mv, x->A);
}

/* The indices (from offset) of role r's percepts computed into x->mv, appended. */
static int append_seen(Scratch *x, int r, PyObject *list, int offset) {
    const uint8_t *mv = x->mv + SEE_AT(r);
    for (int i = 0; i < NSEES[r]; i++) {
        if (!mv[i]) continue;
        PyObject *v = PyLong_FromLong(offset + i);
        if (!v || PyList_Append(list, v) < 0) { Py_XDECREF(v); return -1; }
        Py_DECREF(v);
    }
    return 0;
}

static PyObject *py_step_sees(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(2);
    int J[ROLES > 0 ? ROLES : 1];
    OPEN_STATE(args[0]);
    PyObject *seen = NULL, *out = NULL;
    if (read_joint(args[1], J) == 0 && (seen = PyList_New(0))) {
        g_analyze(x.s, x.n, x.L, x.A);
        int r = 0, computed = 0;
        for (; r < ROLES; r++) {
            if (!ROLE_SEES[r]) continue;
            if (!computed || !SEES_SHARED) compute_sees(&x, r, J);
            computed = 1;
            if (append_seen(&x, r, seen, SEES_OFF[r]) < 0) break;
        }
        if (r == ROLES) {
            n_trans(x.s, J, x.o, x.mv, x.A);
            out = Py_BuildValue("(NO)", write_state(x.o), seen);
        }
    }
    Py_XDECREF(seen);
    scratch_close(&x);
    return out;
}

static int read_role(PyObject *obj) {
    long r = PyLong_AsLong(obj);
    if (r == -1 && PyErr_Occurred()) return -1;
    if (r < 0 || r >= ROLES || !ROLE_SEES[r]) {
        PyErr_SetString(PyExc_ValueError, "not a role with percepts");
        return -1;
    }
    return (int)r;
}

static PyObject *py_role_sees(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(3);
    int J[ROLES > 0 ? ROLES : 1];
    int r = read_role(args[0]);
    if (r < 0) return NULL;
    OPEN_STATE(args[1]);
    PyObject *seen = NULL;
    if (read_joint(args[2], J) == 0 && (seen = PyList_New(0))) {
        g_analyze(x.s, x.n, x.L, x.A);
        compute_sees(&x, r, J);
        if (append_seen(&x, r, seen, 0) < 0) Py_CLEAR(seen);
    }
    scratch_close(&x);
    return seen;
}

/* role_sees_match(r, state, joints, wanted): for each joint move, whether role r's percepts are
 * exactly those marked 1 in the bytes `wanted` (one byte per percept of the role). */
static PyObject *py_role_sees_match(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(4);
    int J[ROLES > 0 ? ROLES : 1];
    int r = read_role(args[0]);
    if (r < 0) return NULL;
    PyObject *joints = args[2], *wanted = args[3];
    if (!PyList_Check(joints) || !PyBytes_Check(wanted) || PyBytes_GET_SIZE(wanted) != NSEES[r]) {
        PyErr_SetString(PyExc_ValueError, "role_sees_match needs a list of joint moves and one byte per percept");
        return NULL;
    }
    OPEN_STATE(args[1]);
    const uint8_t *want = (const uint8_t *)PyBytes_AS_STRING(wanted);
    Py_ssize_t count = PyList_GET_SIZE(joints);
    PyObject *out = PyList_New(count);
    if (out) {
        g_analyze(x.s, x.n, x.L, x.A);
        for (Py_ssize_t i = 0; i < count; i++) {
            if (read_joint(PyList_GET_ITEM(joints, i), J) < 0) { Py_CLEAR(out); break; }
            compute_sees(&x, r, J);
            PyObject *ok = memcmp(x.mv + SEE_AT(r), want, NSEES[r]) == 0 ? Py_True : Py_False;
            Py_INCREF(ok);
            PyList_SET_ITEM(out, i, ok);
        }
    }
    scratch_close(&x);
    return out;
}

/* steps(state, joints): the next state for each joint move. */
static PyObject *py_steps(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(2);
    int J[ROLES > 0 ? ROLES : 1];
    if (!PyList_Check(args[1])) {
        PyErr_SetString(PyExc_ValueError, "steps needs a list of joint moves");
        return NULL;
    }
    OPEN_STATE(args[0]);
    Py_ssize_t count = PyList_GET_SIZE(args[1]);
    PyObject *out = PyList_New(count);
    if (out) {
        g_analyze(x.s, x.n, x.L, x.A);
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *next = NULL;
            if (read_joint(PyList_GET_ITEM(args[1], i), J) == 0) {
                n_trans(x.s, J, x.o, x.mv, x.A);
                next = write_state(x.o);
            }
            if (!next) { Py_CLEAR(out); break; }
            PyList_SET_ITEM(out, i, next);
        }
    }
    scratch_close(&x);
    return out;
}

/* playout(state, rng, max_steps, direct) -> (state, steps, status): status 1 terminal, 0 stopped
 * at max_steps, -2 a role without legal moves in a non-terminal state. */
static PyObject *py_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(4);
    Draw d;
    long steps;
    long max_steps = PyLong_AsLong(args[2]);
    int direct = PyObject_IsTrue(args[3]);
    if ((max_steps == -1 && PyErr_Occurred()) || direct < 0) return NULL;
    OPEN_STATE(args[0]);
    PyObject *out = NULL;
    if (draw_open(&d, args[1], direct) == 0) {
        int status = run_playout(&x, &d, max_steps, &steps);
        draw_close(&d);
        if (status != -1) out = Py_BuildValue("(Nli)", write_state(x.s), steps, status);
    }
    scratch_close(&x);
    return out;
}

/* playouts(state, rng, count, max_steps, direct) -> (status, steps, unfinished, sums, counts,
 * several): count playouts from state; sums and counts per role of the final goal values;
 * several: the index of a role with several goal values in a final state (or -1). Status -2
 * as for playout (the figures then cover the playouts before). */
static PyObject *py_playouts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(5);
    uint64_t start[NW];
    int G[TOTAL_GOALS];
    long long sums[ROLES > 0 ? ROLES : 1];
    int counts[ROLES > 0 ? ROLES : 1];
    Draw d;
    long total = 0, unfinished = 0, steps;
    int status = 1, several = -1;
    long count = PyLong_AsLong(args[2]);
    long max_steps = PyLong_AsLong(args[3]);
    int direct = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || direct < 0 || read_state(args[0], start) < 0) return NULL;
    Scratch x;
    if (scratch_open(&x) < 0) return NULL;
    if (draw_open(&d, args[1], direct) < 0) { scratch_close(&x); return NULL; }
    for (int r = 0; r < ROLES; r++) sums[r] = counts[r] = 0;
    for (long i = 0; i < count; i++) {
        memcpy(x.s, start, sizeof(start));
        status = run_playout(&x, &d, max_steps, &steps);
        if (status < 0) break;
        total += steps;
        unfinished += status == 0;
        g_goals(x.s, x.n, G);
        for (int r = 0; r < ROLES; r++) {
            if (x.n[r] > 1 && several < 0) several = r;
            if (x.n[r] == 1) { sums[r] += G[GOFF[r]]; counts[r]++; }
        }
        if (several >= 0) break;
        if ((i & 1023) == 1023 && PyErr_CheckSignals() < 0) { status = -1; break; }
    }
    draw_close(&d);
    scratch_close(&x);
    if (status == -1) return NULL;
    PyObject *sum_list = PyList_New(ROLES);
    if (!sum_list) return NULL;
    for (int r = 0; r < ROLES; r++) PyList_SET_ITEM(sum_list, r, PyLong_FromLongLong(sums[r]));
    return Py_BuildValue("(illNNi)", status, total, unfinished, sum_list, int_list(counts, ROLES), several);
}

/* Perft: one level's buffers per depth, allocated once. */
typedef struct {
    uint8_t *A, *mv;
    int *L;
    uint64_t *states;
    unsigned long long visited;
    int failed;
} Perft;

static unsigned long long perft_count(Perft *p, const uint64_t *s, int depth) {
    int n[ROLES > 0 ? ROLES : 1], J[ROLES > 0 ? ROLES : 1], at[ROLES > 0 ? ROLES : 1];
    uint8_t *A = p->A + (size_t)NA * depth;
    int *L = p->L + (size_t)TOTAL_MOVES * depth;
    uint64_t *child = p->states + (size_t)NW * depth;
    if (p->failed) return 0;
    if (depth == 0) return 1;
    if (g_analyze(s, n, L, A)) return 0;
    unsigned long long total = 1;
    for (int r = 0; r < ROLES; r++) total *= (unsigned long long)n[r];
    if (depth == 1 || total == 0) return total;
    if ((++p->visited & 0xffff) == 0 && PyErr_CheckSignals() < 0) { p->failed = 1; return 0; }
    total = 0;
    for (int r = 0; r < ROLES; r++) at[r] = 0;
    for (;;) {
        for (int r = 0; r < ROLES; r++) J[r] = L[MOFF[r] + at[r]];
        n_trans(s, J, child, p->mv, A);
        total += perft_count(p, child, depth - 1);
        int r = ROLES - 1;
        while (r >= 0 && ++at[r] == n[r]) at[r--] = 0;
        if (r < 0) break;
    }
    return total;
}

static PyObject *py_perft(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(2);
    uint64_t s[NW];
    long depth = PyLong_AsLong(args[1]);
    if ((depth == -1 && PyErr_Occurred()) || read_state(args[0], s) < 0) return NULL;
    if (depth < 0 || depth > 100000) {
        PyErr_SetString(PyExc_ValueError, "perft depth must be between 0 and 100000");
        return NULL;
    }
    size_t levels = (size_t)depth + 1;
    Perft p = {PyMem_Malloc(NA * levels), PyMem_Malloc(MV_MAX), PyMem_Malloc(sizeof(int) * TOTAL_MOVES * levels),
               PyMem_Malloc(sizeof(uint64_t) * NW * levels), 0, 0};
    PyObject *out = NULL;
    if (!p.A || !p.mv || !p.L || !p.states) {
        PyErr_NoMemory();
    } else {
        unsigned long long count = perft_count(&p, s, (int)depth);
        if (!p.failed) out = PyLong_FromUnsignedLongLong(count);
    }
    PyMem_Free(p.A); PyMem_Free(p.mv); PyMem_Free(p.L); PyMem_Free(p.states);
    return out;
}

/* fluents(state): the indices of the fluents that hold, ascending. */
static PyObject *py_fluents(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(1);
    uint64_t s[NW];
    if (read_state(args[0], s) < 0) return NULL;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int i = 0; i < NW; i++) {
        uint64_t w = s[i];
        for (int j = 0; w; j++, w >>= 1) {
            if (w & 1u) {
                PyObject *v = PyLong_FromLong(64 * i + j);
                if (!v || PyList_Append(list, v) < 0) { Py_XDECREF(v); Py_DECREF(list); return NULL; }
                Py_DECREF(v);
            }
        }
    }
    return list;
}

/* mt_state(rng): the Mersenne Twister words and index as read through MTObject (checked against
 * rng.getstate() before drawing directly). */
static PyObject *py_mt_state(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(1);
    MTObject *r = (MTObject *)args[0];
    PyObject *out = PyTuple_New(625);
    if (!out) return NULL;
    for (int i = 0; i < 624; i++) PyTuple_SET_ITEM(out, i, PyLong_FromUnsignedLong(r->state[i]));
    PyTuple_SET_ITEM(out, 624, PyLong_FromLong(r->index));
    return out;
}

/* draws(rng, n, count, direct): count draws below n, as playouts make them. */
static PyObject *py_draws(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    NEED(4);
    long n = PyLong_AsLong(args[1]), count = PyLong_AsLong(args[2]);
    int direct = PyObject_IsTrue(args[3]);
    if (PyErr_Occurred() || direct < 0) return NULL;
    if (n < 2 || n > 0x7fffffff || count < 0) {
        PyErr_SetString(PyExc_ValueError, "draws needs 2 <= n < 2**31 and count >= 0");
        return NULL;
    }
    Draw d;
    if (draw_open(&d, args[0], direct) < 0) return NULL;
    PyObject *out = PyList_New(count);
    for (long i = 0; out && i < count; i++) {
        int v = draw(&d, (int)n);
        if (v < 0) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, PyLong_FromLong(v));
    }
    draw_close(&d);
    return out;
}

static PyMethodDef methods[] = {
    {"analyze", (PyCFunction)(void (*)(void))py_analyze, METH_FASTCALL, "legal move lists and terminal"},
    {"goals", (PyCFunction)(void (*)(void))py_goals, METH_FASTCALL, "goal value lists"},
    {"step", (PyCFunction)(void (*)(void))py_step, METH_FASTCALL, "the next state"},
    {"step_sees", (PyCFunction)(void (*)(void))py_step_sees, METH_FASTCALL, "the next state and the sees outputs"},
    {"role_sees", (PyCFunction)(void (*)(void))py_role_sees, METH_FASTCALL, "one role's sees outputs"},
    {"role_sees_match", (PyCFunction)(void (*)(void))py_role_sees_match, METH_FASTCALL, "percepts equal to wanted, per joint"},
    {"steps", (PyCFunction)(void (*)(void))py_steps, METH_FASTCALL, "the next state per joint"},
    {"playout", (PyCFunction)(void (*)(void))py_playout, METH_FASTCALL, "one random playout"},
    {"playouts", (PyCFunction)(void (*)(void))py_playouts, METH_FASTCALL, "many random playouts, summed"},
    {"perft", (PyCFunction)(void (*)(void))py_perft, METH_FASTCALL, "joint-move sequences of a depth"},
    {"fluents", (PyCFunction)(void (*)(void))py_fluents, METH_FASTCALL, "indices of the fluents that hold"},
    {"mt_state", (PyCFunction)(void (*)(void))py_mt_state, METH_FASTCALL, "the generator state as read here"},
    {"draws", (PyCFunction)(void (*)(void))py_draws, METH_FASTCALL, "draws as playouts make them"},
    {NULL, NULL, 0, NULL},
};

static int exec_module(PyObject *module) {
    return PyModule_AddIntConstant(module, "WORDS", NW) < 0 || PyModule_AddIntConstant(module, "FLUENTS", NB) < 0 ? -1 : 0;
}

static PyModuleDef_Slot slots[] = {{Py_mod_exec, (void *)exec_module}, {0, NULL}};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, STR(MODULE_NAME), "A compiled game (generated).", 0, methods, slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC CAT(PyInit_, MODULE_NAME)(void) { return PyModuleDef_Init(&definition); }
