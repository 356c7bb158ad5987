/*
    ProverTrace: seeded random playouts of a GDL or GDL-II game with the Dresden GameController's
    Java prover, printed as JSON lines, so that another reasoner can be checked against it.

    Copyright (C) 2026 the ggp project's authors

    This program is free software: you can redistribute it and/or modify it under the terms of
    the GNU General Public License as published by the Free Software Foundation, either version 3
    of the License, or (at your option) any later version. It links the GameController (GPL v3).

    This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY;
    without even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See
    the GNU General Public License (interop/LICENSE) for more details.
*/
package ggpinterop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import cs227b.teamIago.gameProver.JavaProversGameSimulatorEnhancer;
import cs227b.teamIago.resolver.Connective;
import cs227b.teamIago.resolver.Expression;
import cs227b.teamIago.resolver.Theory;
import cs227b.teamIago.util.GameState;
import tud.gamecontroller.game.JointMoveInterface;
import tud.gamecontroller.game.MoveInterface;
import tud.gamecontroller.game.RoleInterface;
import tud.gamecontroller.game.impl.JointMove;
import tud.gamecontroller.game.javaprover.Reasoner;
import tud.gamecontroller.game.javaprover.Term;

/**
 * Usage: {@code ProverTrace GAMEFILE [--playouts N] [--seed S] [--max-steps M] [--profile]}.
 *
 * <p>Prints one JSON object per line: {@code {"roles": [...]}} first, then for every state of every
 * playout {@code {"playout", "step", "state", "terminal", "legal", "goals"?, "joint"?, "sees"?,
 * "ms"}} (goals at terminal states only, as a game manager asks them; the joint move chosen
 * uniformly at random with {@code java.util.Random(S)}, and each role's percepts for it), and
 * {@code {"done": N, "ms": {...}}} at the end with the prover's time per kind of query. Terms are
 * printed as the prover prints them (KIF, upper case). Exit status 1 with a message on standard
 * error when the file cannot be read or a role has no legal move. With {@code --profile} the last
 * line also has {@code "profile"}: the relations the prover spent the most time proving, each
 * with its own time (its subgoals' excluded) and its number of calls.
 */
public final class ProverTrace {

    private ProverTrace() {
    }

    private static String quote(String text) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : text.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                sb.append('\\').append(ch);
            } else if (ch < 0x20) {
                sb.append(' ');
            } else {
                sb.append(ch);
            }
        }
        return sb.append('"').toString();
    }

    private static String list(Collection<String> items) {
        StringBuilder sb = new StringBuilder("[");
        boolean first = true;
        for (String item : items) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append(quote(item));
        }
        return sb.append(']').toString();
    }

    private static String kif(Term term) {
        return term.getKIFForm().trim();
    }

    /** The prover's theory, timing each relation's proofs: own time and calls, by NAME/ARITY. */
    private static final class ProfilingTheory extends Theory {
        final Map<String, long[]> stats = new HashMap<>();
        private final java.util.ArrayDeque<long[]> frames = new java.util.ArrayDeque<>();
        private final java.util.ArrayDeque<String> names = new java.util.ArrayDeque<>();

        ProfilingTheory() {
            super(false, true);
        }

        @Override
        public void enterChain(Object e) {
            super.enterChain(e);
            String name = e instanceof Expression ? ((Expression) e).firstOp() + "/"
                    + (e instanceof Connective ? ((Connective) e).getOperands().size() : 0) : "(conjunction)";
            names.push(name);
            frames.push(new long[] {System.nanoTime(), 0});
        }

        @Override
        public void exitChain(Object e, boolean result, Object res) {
            super.exitChain(e, result, res);
            long[] frame = frames.pop();
            String name = names.pop();
            long spent = System.nanoTime() - frame[0];
            long[] stat = stats.computeIfAbsent(name, k -> new long[2]);
            stat[0] += spent - frame[1];
            stat[1]++;
            if (!frames.isEmpty()) {
                frames.peek()[1] += spent;
            }
        }

        String json(int top) {
            List<Map.Entry<String, long[]>> entries = new ArrayList<>(stats.entrySet());
            entries.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < Math.min(top, entries.size()); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                Map.Entry<String, long[]> entry = entries.get(i);
                sb.append("{\"relation\": ").append(quote(entry.getKey())).append(", \"ms\": ")
                  .append(String.format("%.3f", entry.getValue()[0] / 1e6)).append(", \"calls\": ")
                  .append(entry.getValue()[1]).append('}');
            }
            return sb.append(']').toString();
        }
    }

    /** A prover whose theory is {@code theory}: set before the rules are read (the fields are not public). */
    private static Reasoner reasonerWith(Theory theory, String text) throws ReflectiveOperationException {
        JavaProversGameSimulatorEnhancer simulator = new JavaProversGameSimulatorEnhancer(false, true);
        java.lang.reflect.Field field = simulator.getClass().getSuperclass().getDeclaredField("theoryObj");
        field.setAccessible(true);
        field.set(simulator, theory);
        simulator.ParseDescIntoTheory(text);
        Reasoner reasoner = new Reasoner("(role nobody)");
        java.lang.reflect.Field sim = Reasoner.class.getDeclaredField("gameSim");
        sim.setAccessible(true);
        sim.set(reasoner, simulator);
        java.lang.reflect.Field description = Reasoner.class.getDeclaredField("gameDescription");
        description.setAccessible(true);
        description.set(reasoner, text);
        return reasoner;
    }

    private static final String[] KINDS = {"init", "state", "terminal", "legal", "goals", "sees", "next"};

    private static final class Clock {
        final Map<String, Long> total = new HashMap<>();
        final Map<String, Long> step = new HashMap<>();
        long started;

        void start() {
            started = System.nanoTime();
        }

        void stop(String kind) {
            long spent = System.nanoTime() - started;
            total.merge(kind, spent, Long::sum);
            step.merge(kind, spent, Long::sum);
        }

        String json(Map<String, Long> times) {
            StringBuilder sb = new StringBuilder("{");
            boolean first = true;
            for (String kind : KINDS) {
                if (!times.containsKey(kind)) {
                    continue;
                }
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(quote(kind)).append(": ").append(String.format("%.3f", times.get(kind) / 1e6));
            }
            return sb.append('}').toString();
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args[0].startsWith("-")) {
            System.err.println("usage: ProverTrace GAMEFILE [--playouts N] [--seed S] [--max-steps M]");
            System.exit(2);
        }
        int playouts = 1;
        long seed = 0;
        int maxSteps = 1000;
        boolean profile = false;
        for (int i = 1; i < args.length; i += 2) {
            if (args[i].equals("--profile")) {
                profile = true;
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                System.err.println("ProverTrace: " + args[i] + " needs a value");
                System.exit(2);
            }
            switch (args[i]) {
                case "--playouts": playouts = Integer.parseInt(args[i + 1]); break;
                case "--seed": seed = Long.parseLong(args[i + 1]); break;
                case "--max-steps": maxSteps = Integer.parseInt(args[i + 1]); break;
                default:
                    System.err.println("ProverTrace: unknown option " + args[i]);
                    System.exit(2);
            }
        }
        String text;
        try {
            text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        } catch (IOException exc) {
            System.err.println("ProverTrace: cannot read " + args[0] + ": " + exc.getMessage());
            System.exit(1);
            return;
        }
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.setLevel(java.util.logging.Level.SEVERE);
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Random random = new Random(seed);
        Clock clock = new Clock();
        clock.start();
        ProfilingTheory profiler = profile ? new ProfilingTheory() : null;
        Reasoner reasoner;
        try {
            reasoner = profiler != null ? reasonerWith(profiler, text) : new Reasoner(text);
        } catch (ReflectiveOperationException exc) {
            System.err.println("ProverTrace: cannot profile this prover: " + exc);
            System.exit(1);
            return;
        }
        List<? extends RoleInterface<Term>> roles = reasoner.getRoles();
        clock.stop("init");
        List<String> roleNames = new ArrayList<>();
        for (RoleInterface<Term> role : roles) {
            roleNames.add(kif(role.getTerm()));
        }
        out.println("{\"roles\": " + list(roleNames) + "}");
        for (int playout = 0; playout < playouts; playout++) {
            clock.start();
            GameState state = reasoner.getInitialState();
            clock.stop("init");
            for (int step = 0; ; step++) {
                clock.step.clear();
                StringBuilder line = new StringBuilder();
                line.append("{\"playout\": ").append(playout).append(", \"step\": ").append(step);
                clock.start();
                List<String> fluents = new ArrayList<>();
                for (Object fluent : reasoner.getFluents(state)) {
                    fluents.add(((tud.gamecontroller.game.FluentInterface<?>) fluent).getKIFForm().trim());
                }
                clock.stop("state");
                line.append(", \"state\": ").append(list(fluents));
                clock.start();
                boolean terminal = reasoner.isTerminal(state);
                clock.stop("terminal");
                line.append(", \"terminal\": ").append(terminal);
                Map<RoleInterface<Term>, List<MoveInterface<Term>>> legal = new HashMap<>();
                StringBuilder legalJson = new StringBuilder("{");
                for (RoleInterface<Term> role : terminal ? new ArrayList<RoleInterface<Term>>() : roles) {
                    clock.start();
                    List<MoveInterface<Term>> moves = new ArrayList<>(reasoner.getLegalMoves(state, role));
                    clock.stop("legal");
                    legal.put(role, moves);
                    List<String> names = new ArrayList<>();
                    for (MoveInterface<Term> move : moves) {
                        names.add(kif(move.getTerm()));
                    }
                    if (legalJson.length() > 1) {
                        legalJson.append(", ");
                    }
                    legalJson.append(quote(kif(role.getTerm()))).append(": ").append(list(names));
                }
                line.append(", \"legal\": ").append(legalJson).append('}');
                boolean stop = terminal || step >= maxSteps;
                if (terminal) {
                    StringBuilder goals = new StringBuilder("{");
                    for (RoleInterface<Term> role : roles) {
                        clock.start();
                        int value = reasoner.getGoalValue(state, role);
                        clock.stop("goals");
                        if (goals.length() > 1) {
                            goals.append(", ");
                        }
                        goals.append(quote(kif(role.getTerm()))).append(": ").append(value);
                    }
                    line.append(", \"goals\": ").append(goals).append('}');
                }
                GameState next = null;
                if (!stop) {
                    Map<RoleInterface<Term>, MoveInterface<Term>> chosen = new HashMap<>();
                    List<String> jointNames = new ArrayList<>();
                    for (RoleInterface<Term> role : roles) {
                        List<MoveInterface<Term>> moves = legal.get(role);
                        if (moves.isEmpty()) {
                            out.flush();
                            System.err.println("ProverTrace: " + kif(role.getTerm()) + " has no legal move at step "
                                               + step + " of playout " + playout);
                            System.exit(1);
                        }
                        MoveInterface<Term> move = moves.get(random.nextInt(moves.size()));
                        chosen.put(role, move);
                        jointNames.add(kif(move.getTerm()));
                    }
                    JointMoveInterface<Term> joint = new JointMove<Term>(roles, chosen);
                    line.append(", \"joint\": ").append(list(jointNames));
                    StringBuilder sees = new StringBuilder("{");
                    for (RoleInterface<Term> role : roles) {
                        clock.start();
                        Collection<Term> terms = reasoner.getSeesTerms(state, role, joint);
                        clock.stop("sees");
                        List<String> names = new ArrayList<>();
                        for (Term term : terms) {
                            names.add(kif(term));
                        }
                        if (sees.length() > 1) {
                            sees.append(", ");
                        }
                        sees.append(quote(kif(role.getTerm()))).append(": ").append(list(names));
                    }
                    line.append(", \"sees\": ").append(sees).append('}');
                    clock.start();
                    next = reasoner.getSuccessorState(state, joint);
                    clock.stop("next");
                }
                line.append(", \"ms\": ").append(clock.json(clock.step)).append('}');
                out.println(line);
                out.flush();
                if (stop) {
                    break;
                }
                state = next;
            }
        }
        out.println("{\"done\": " + playouts + ", \"ms\": " + clock.json(clock.total)
                    + (profiler != null ? ", \"profile\": " + profiler.json(40) : "") + "}");
        out.flush();
    }
}
