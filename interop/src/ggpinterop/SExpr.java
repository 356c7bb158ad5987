/*
    SExpr: the S-expressions of GGP messages, read and printed.

    Copyright (C) 2026 the ggp project's authors

    This program is free software: you can redistribute it and/or modify it under the terms of
    the GNU General Public License as published by the Free Software Foundation, either version 3
    of the License, or (at your option) any later version.

    This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY;
    without even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See
    the GNU General Public License (interop/LICENSE) for more details.
*/
package ggpinterop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An atom (a name) or a list of S-expressions; {@link #toString} prints it back. */
final class SExpr {

    /** The atom's text, or null for a list. */
    final String atom;
    /** The list's elements (empty for an atom). */
    final List<SExpr> items;

    private SExpr(String atom, List<SExpr> items) {
        this.atom = atom;
        this.items = items;
    }

    static SExpr atom(String text) {
        return new SExpr(text, Collections.<SExpr>emptyList());
    }

    static SExpr list(List<SExpr> items) {
        return new SExpr(null, Collections.unmodifiableList(new ArrayList<>(items)));
    }

    boolean isAtom() {
        return atom != null;
    }

    /** True for {@code nil} and {@code ()}: nothing. */
    boolean isNil() {
        return isAtom() ? atom.equalsIgnoreCase("nil") : items.isEmpty();
    }

    /** The element {@code i} of a list, or a {@link ProtocolException} naming what was expected. */
    SExpr get(int i, String what) throws ProtocolException {
        if (isAtom() || i >= items.size()) {
            throw new ProtocolException("expected " + what + " at position " + i + " of " + this);
        }
        return items.get(i);
    }

    @Override
    public String toString() {
        if (isAtom()) {
            return atom;
        }
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(items.get(i));
        }
        return sb.append(')').toString();
    }

    /** A message that does not read as the protocol says. */
    static final class ProtocolException extends Exception {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }

    /** Reads one S-expression from {@code text} (comments after {@code ;} skipped). */
    static SExpr parse(String text) throws ProtocolException {
        List<SExpr> all = parseAll(text);
        if (all.size() != 1) {
            throw new ProtocolException("expected one S-expression, found " + all.size());
        }
        return all.get(0);
    }

    /** Reads every S-expression of {@code text}. */
    static List<SExpr> parseAll(String text) throws ProtocolException {
        List<List<SExpr>> stack = new ArrayList<>();
        stack.add(new ArrayList<SExpr>());
        int i = 0;
        int n = text.length();
        while (i < n) {
            char ch = text.charAt(i);
            if (ch == ';') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (Character.isWhitespace(ch)) {
                i++;
            } else if (ch == '(') {
                if (stack.size() > 400) {
                    throw new ProtocolException("parentheses nested too deep");
                }
                stack.add(new ArrayList<SExpr>());
                i++;
            } else if (ch == ')') {
                if (stack.size() == 1) {
                    throw new ProtocolException("unbalanced ')' at offset " + i);
                }
                List<SExpr> done = stack.remove(stack.size() - 1);
                stack.get(stack.size() - 1).add(list(done));
                i++;
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(text.charAt(i)) && "();".indexOf(text.charAt(i)) < 0) {
                    i++;
                }
                stack.get(stack.size() - 1).add(atom(text.substring(start, i)));
            }
        }
        if (stack.size() != 1) {
            throw new ProtocolException("unbalanced '(': " + (stack.size() - 1) + " left open");
        }
        return stack.get(0);
    }
}
