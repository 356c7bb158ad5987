/*
    SortedSeesReasonerFactory: the GameController's Java prover, with percepts in a canonical order.

    Copyright (C) 2026 the ggp project's authors

    This program is free software: you can redistribute it and/or modify it under the terms of
    the GNU General Public License as published by the Free Software Foundation, either version 3
    of the License, or (at your option) any later version. It links the GameController (GPL v3).

    This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY;
    without even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See
    the GNU General Public License (interop/LICENSE) for more details.
*/
package ggpinterop;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;

import cs227b.teamIago.util.GameState;
import tud.gamecontroller.ReasonerFactoryInterface;
import tud.gamecontroller.auxiliary.InvalidKIFException;
import tud.gamecontroller.game.FluentInterface;
import tud.gamecontroller.game.JointMoveInterface;
import tud.gamecontroller.game.MoveInterface;
import tud.gamecontroller.game.ReasonerInterface;
import tud.gamecontroller.game.RoleInterface;
import tud.gamecontroller.game.javaprover.Reasoner;
import tud.gamecontroller.game.javaprover.Term;
import tud.gamecontroller.game.javaprover.TermFactory;
import tud.gamecontroller.term.TermFactoryInterface;

/**
 * Creates the GameController's Java prover ({@link Reasoner}) wrapped so that a role's percepts
 * come as a list sorted by their KIF text, without repeats.
 *
 * <p>UWA's agents compare percepts with {@code List.equals}: in the order the prover happens to
 * derive them, which depends on the order of the fluents in its state. A manager sends percepts
 * as a set, in its own order. Sorting both sides (the adapter sorts what the manager sends the
 * same way, {@link #canonical}) makes the comparison the set comparison GDL-II means.
 */
final class SortedSeesReasonerFactory implements ReasonerFactoryInterface<Term, GameState> {

    /** {@code terms} sorted by KIF text, each once: the order both sides of a comparison use. */
    static List<Term> canonical(Collection<? extends Term> terms) {
        TreeMap<String, Term> sorted = new TreeMap<>();
        for (Term term : terms) {
            sorted.put(term.getKIFForm().trim(), term);
        }
        return new ArrayList<>(sorted.values());
    }

    @Override
    public ReasonerInterface<Term, GameState> createReasoner(String gameDescription, String gameName) {
        return new Sorted(new Reasoner(gameDescription));
    }

    @Override
    public TermFactoryInterface<Term> getTermFactory() {
        return new TermFactory();
    }

    /** The prover, with {@link #getSeesTerms} in canonical order. */
    private static final class Sorted implements ReasonerInterface<Term, GameState> {
        private final Reasoner inner;

        Sorted(Reasoner inner) {
            this.inner = inner;
        }

        @Override
        public List<? extends RoleInterface<Term>> getRoles() {
            return inner.getRoles();
        }

        @Override
        public GameState getInitialState() {
            return inner.getInitialState();
        }

        @Override
        public boolean isTerminal(GameState state) {
            return inner.isTerminal(state);
        }

        @Override
        public GameState getSuccessorState(GameState state, JointMoveInterface<Term> jointMove) {
            return inner.getSuccessorState(state, jointMove);
        }

        @Override
        public boolean isLegal(GameState state, RoleInterface<Term> role, MoveInterface<Term> move) {
            return inner.isLegal(state, role, move);
        }

        @Override
        public int getGoalValue(GameState state, RoleInterface<Term> role) {
            return inner.getGoalValue(state, role);
        }

        @Override
        public Collection<? extends MoveInterface<Term>> getLegalMoves(GameState state, RoleInterface<Term> role) {
            return inner.getLegalMoves(state, role);
        }

        @Override
        public Collection<? extends FluentInterface<Term>> getFluents(GameState state) {
            return inner.getFluents(state);
        }

        @Override
        public Collection<Term> getSeesTerms(GameState state, RoleInterface<Term> role,
                                             JointMoveInterface<Term> jointMove) {
            return canonical(inner.getSeesTerms(state, role, jointMove));
        }

        @Override
        public Collection<Term> getSeesXMLTerms(GameState state, RoleInterface<Term> role) {
            return inner.getSeesXMLTerms(state, role);
        }

        @Override
        public String getKIFGameDescription() {
            return inner.getKIFGameDescription();
        }

        @Override
        public GameState getStateFromString(String state) throws InvalidKIFException {
            return inner.getStateFromString(state);
        }
    }
}
