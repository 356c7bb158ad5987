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

import cs227b.teamIago.util.GameState;
import tud.gamecontroller.game.JointMoveInterface;
import tud.gamecontroller.game.MoveInterface;
import tud.gamecontroller.game.RoleInterface;
import tud.gamecontroller.game.impl.JointMove;
import tud.gamecontroller.game.javaprover.Reasoner;
import tud.gamecontroller.game.javaprover.Term;

/**
 * Usage: {@code ProverTrace GAMEFILE [--playouts N] [--seed S] [--max-steps M]}.
 *
 * <p>Prints one JSON object per line: {@code {"roles": [...]}} first, then for every state of every
 * playout {@code {"playout", "step", "state", "terminal", "legal", "goals"?, "joint"?, "sees"?,
 * "ms"}} (goals at terminal states only, as a game manager asks them; the joint move chosen
 * uniformly at random with {@code java.util.Random(S)}, and each role's percepts for it), and
 * {@code {"done": N, "ms": {...}}} at the end with the prover's time per kind of query. Terms are
 * printed as the prover prints them (KIF, upper case). Exit status 1 with a message on standard
 * error when the file cannot be read or a role has no legal move.
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
        for (int i = 1; i + 1 < args.length; i += 2) {
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
        Reasoner reasoner = new Reasoner(text);
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
        out.println("{\"done\": " + playouts + ", \"ms\": " + clock.json(clock.total) + "}");
        out.flush();
    }
}
