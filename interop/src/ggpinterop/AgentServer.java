/*
    AgentServer: one of UWA's GDL-II agents (HyperPlay and its kin) served as a GGP HTTP player.

    Copyright (C) 2026 the ggp project's authors

    This program is free software: you can redistribute it and/or modify it under the terms of
    the GNU General Public License as published by the Free Software Foundation, either version 3
    of the License, or (at your option) any later version. It links UWA's GameController fork and
    its agents (GPL v3).

    This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY;
    without even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See
    the GNU General Public License (interop/LICENSE) for more details.
*/
package ggpinterop;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

import cs227b.teamIago.util.GameState;
import ggpinterop.SExpr.ProtocolException;
import tud.gamecontroller.ConnectionEstablishedNotifier;
import tud.gamecontroller.GDLVersion;
import tud.gamecontroller.game.MoveInterface;
import tud.gamecontroller.game.RoleInterface;
import tud.gamecontroller.game.impl.Game;
import tud.gamecontroller.game.impl.Move;
import tud.gamecontroller.game.impl.RunnableMatch;
import tud.gamecontroller.game.impl.State;
import tud.gamecontroller.game.javaprover.ParserAdapter;
import tud.gamecontroller.game.javaprover.Term;
import tud.gamecontroller.players.LegalPlayer;
import tud.gamecontroller.players.Player;
import tud.gamecontroller.players.RandomPlayer;
import tud.gamecontroller.players.AnytimeHyperPlayerLikelihoodTree.AnytimeHyperPlayerLikelihoodTree;
import tud.gamecontroller.players.HyperPlayer.HyperPlayer;
import tud.gamecontroller.players.ImprovedRandomPlayer.ImprovedRandomPlayer;
import tud.gamecontroller.players.OPAnytimeHyperPlayer.OPAnytimeHyperPlayer;

/**
 * Usage: {@code AgentServer AGENT [--port P] [--host H] [--name NAME] [-v]}.
 *
 * <p>Serves one of UWA's local GDL-II agents ({@code hyper}: HyperPlay; {@code ahyperlt},
 * {@code ophyper}: its anytime successors; {@code imprandom}, {@code random}, {@code legal}) as a
 * player of the GGP HTTP protocol, one match at a time: the agent gets the match as UWA's
 * GameController hands it to its own local players (a {@code Game} over the GameController's Java
 * prover built from the rules in START; for each PLAY the percepts and the agent's last move).
 * Games without {@code sees} get the rule the GameController adds for GDL games, and their GDL
 * PLAY messages become {@code (did ROLE MOVE)} percepts. Prints {@code listening on
 * http://HOST:PORT} once ready.
 *
 * <p>The agent decides on a worker thread of its own, one message after another, as long as it
 * needs: an agent that is not done by the manager's deadline gets no answer from this server (the
 * manager substitutes a move and records it), and the next message waits for it. UWA's own
 * manager instead runs a late agent's next turn beside the unfinished one, which corrupts its
 * state. The agents write their logs to {@code matches/} in the working directory.
 */
public final class AgentServer {

    private static final Logger LOG = Logger.getLogger(AgentServer.class.getName());
    private static final int MAX_HEAD = 16 * 1024;
    private static final int MAX_BODY = 16 * 1024 * 1024;
    private static final String SEES_DID = "(<= (sees ?p (did ?q ?m)) (role ?p) (does ?q ?m))";

    /** The agents this server can run, by the option names of UWA's runner. */
    static final List<String> AGENTS = Collections.unmodifiableList(java.util.Arrays.asList(
            "hyper", "ahyperlt", "ophyper", "imprandom", "random", "legal"));

    private final String agent;
    private final String name;
    private final boolean verbose;
    private final Object lock = new Object();
    private Session session;

    AgentServer(String agent, String name, boolean verbose) {
        this.agent = agent;
        this.name = name;
        this.verbose = verbose;
    }

    static Player<Term, State<Term, GameState>> newAgent(String agent) {
        GDLVersion v2 = GDLVersion.v2;
        switch (agent) {
            case "hyper": return new HyperPlayer<Term, State<Term, GameState>>("hyper", v2);
            case "ahyperlt": return new AnytimeHyperPlayerLikelihoodTree<Term, State<Term, GameState>>("ahyperlt", v2);
            case "ophyper": return new OPAnytimeHyperPlayer<Term, State<Term, GameState>>("ophyper", v2);
            case "imprandom": return new ImprovedRandomPlayer<Term, State<Term, GameState>>("imprandom", v2);
            case "random": return new RandomPlayer<Term, State<Term, GameState>>("random", v2);
            case "legal": return new LegalPlayer<Term, State<Term, GameState>>("legal", v2);
            default: throw new IllegalArgumentException("unknown agent " + agent + "; choose one of " + AGENTS);
        }
    }

    /** One match: the game, the agent, and the worker thread it decides on. */
    private final class Session implements ConnectionEstablishedNotifier {
        final String matchId;
        final Game<Term, GameState> game;
        final RoleInterface<Term> role;
        final int roleIndex;
        final Player<Term, State<Term, GameState>> player;
        final boolean gdl;
        final int playClock;
        final ExecutorService worker;
        Thread thread;
        int plays;
        long lastHeard = System.currentTimeMillis();

        Session(String matchId, String roleText, String rules, boolean gdl, int startClock, int playClock)
                throws ProtocolException {
            this.matchId = matchId;
            this.gdl = gdl;
            this.playClock = playClock;
            this.game = new Game<Term, GameState>(rules, "game", new SortedSeesReasonerFactory(), GDLVersion.v2);
            List<? extends RoleInterface<Term>> roles = game.getOrderedRoles();
            int found = -1;
            for (int i = 0; i < roles.size(); i++) {
                if (roles.get(i).getTerm().getKIFForm().trim().equalsIgnoreCase(roleText)) {
                    found = i;
                }
            }
            if (found < 0) {
                throw new ProtocolException("role " + roleText + " is not a role of the game");
            }
            this.roleIndex = found;
            this.role = roles.get(found);
            this.player = newAgent(agent);
            Map<RoleInterface<Term>, Player<Term, State<Term, GameState>>> players = new LinkedHashMap<>();
            players.put(role, player);
            final RunnableMatch<Term, GameState> match =
                    new RunnableMatch<Term, GameState>(matchId, game, startClock, playClock, players);
            this.worker = Executors.newSingleThreadExecutor(runnable -> {
                thread = new Thread(runnable, "agent-" + matchId);
                thread.setDaemon(true);
                return thread;
            });
            worker.submit(() -> {
                player.gameStart(match, role, this);
                return null;
            });
        }

        @Override
        public void connectionEstablished() {
        }

        /** Ends the match: the agent's unfinished work, if any, is stopped after a second. */
        @SuppressWarnings("deprecation")
        void end() {
            worker.shutdown();
            try {
                if (!worker.awaitTermination(1, TimeUnit.SECONDS) && thread != null) {
                    thread.stop();  // the agents never look at interrupts; their state is dropped anyway
                }
            } catch (InterruptedException exc) {
                Thread.currentThread().interrupt();
            }
        }

        boolean abandoned() {
            return System.currentTimeMillis() - lastHeard > 2000L * playClock + 10000L * 6;
        }
    }

    private static String kif(MoveInterface<Term> move) {
        return move.getTerm().getKIFForm().trim();
    }

    private static Term term(SExpr expr) throws ProtocolException {
        try {
            return new Term(ParserAdapter.parseExpression(expr.toString()));
        } catch (Exception exc) {
            throw new ProtocolException("not a term: " + expr);
        }
    }

    private static int clock(SExpr expr) throws ProtocolException {
        try {
            return Math.max(1, (int) Math.floor(Double.parseDouble(expr.atom)));
        } catch (RuntimeException exc) {
            throw new ProtocolException("expected a clock (seconds), got " + expr);
        }
    }

    private static boolean hasSees(List<SExpr> rules) {
        for (SExpr rule : rules) {
            SExpr head = rule;
            if (!rule.isAtom() && !rule.items.isEmpty() && "<=".equals(rule.items.get(0).atom) && rule.items.size() > 1) {
                head = rule.items.get(1);
            }
            if (!head.isAtom() && !head.items.isEmpty() && head.items.get(0).isAtom()
                    && head.items.get(0).atom.equalsIgnoreCase("sees")) {
                return true;
            }
        }
        return false;
    }

    /** The answer to one message (the body of the reply). */
    String handle(String body) throws ProtocolException, InterruptedException {
        SExpr message = SExpr.parse(body);
        if (message.isAtom() || message.items.isEmpty() || !message.items.get(0).isAtom()) {
            throw new ProtocolException("expected a message such as (play ...), got " + message);
        }
        String kind = message.items.get(0).atom.toLowerCase(Locale.ROOT);
        switch (kind) {
            case "info":
                synchronized (lock) {
                    String status = session == null || session.abandoned() ? "available" : "busy";
                    return "((name " + name + ") (status " + status + "))";
                }
            case "preview":
                return "ready";
            case "start":
                return start(message);
            case "play":
                return play(message);
            case "stop":
                return stop(message);
            case "abort":
                synchronized (lock) {
                    if (session != null && session.matchId.equals(message.get(1, "the match id").atom)) {
                        session.end();
                        session = null;
                    }
                }
                return "aborted";
            default:
                throw new ProtocolException("unknown message " + kind);
        }
    }

    private String start(SExpr message) throws ProtocolException, InterruptedException {
        String matchId = message.get(1, "the match id").atom;
        String roleText = message.get(2, "the role").toString();
        SExpr rulesExpr = message.get(3, "the rules");
        int startClock = clock(message.get(4, "the start clock"));
        int playClock = clock(message.get(5, "the play clock"));
        if (rulesExpr.isAtom()) {
            throw new ProtocolException("expected the rules as a list, got " + rulesExpr);
        }
        synchronized (lock) {
            if (session != null && session.matchId.equals(matchId)) {
                return "ready";
            }
            if (session != null && !session.abandoned()) {
                return "busy";
            }
            if (session != null) {
                session.end();
            }
            StringBuilder rules = new StringBuilder();
            for (SExpr rule : rulesExpr.items) {
                rules.append(rule).append('\n');
            }
            boolean gdl = !hasSees(rulesExpr.items);
            if (gdl) {
                rules.append(SEES_DID).append('\n');
            }
            session = new Session(matchId, roleText, rules.toString(), gdl, startClock, playClock);
            return "ready";
        }
    }

    /** The percepts and the last move of a PLAY or STOP message; null for the first PLAY. */
    private Object[] observations(Session s, SExpr message) throws ProtocolException {
        int n = message.items.size();
        if (n == 5) {  // GDL-II: (play ID TURN LASTMOVE PERCEPTS)
            SExpr last = message.get(3, "the last move");
            SExpr percepts = message.get(4, "the percepts");
            if (s.plays == 0 && last.isNil() && percepts.isNil()) {
                return new Object[] {null, null};
            }
            if (last.isNil()) {
                throw new ProtocolException("expected the last move, got nil");
            }
            List<Term> seen = new ArrayList<>();
            if (!percepts.isNil()) {
                if (percepts.isAtom()) {
                    throw new ProtocolException("expected the percepts as a list, got " + percepts);
                }
                for (SExpr p : percepts.items) {
                    seen.add(term(p));
                }
            }
            return new Object[] {SortedSeesReasonerFactory.canonical(seen), new Move<Term>(term(last))};
        }
        if (n == 3 && s.gdl) {  // GDL: (play ID MOVES), the joint move in role order
            SExpr moves = message.get(2, "the joint move");
            if (moves.isNil()) {
                return new Object[] {null, null};
            }
            List<? extends RoleInterface<Term>> roles = s.game.getOrderedRoles();
            if (moves.isAtom() || moves.items.size() != roles.size()) {
                throw new ProtocolException("expected a joint move of " + roles.size() + " moves, got " + moves);
            }
            List<Term> seen = new ArrayList<>();
            for (int i = 0; i < roles.size(); i++) {
                seen.add(term(SExpr.parse("(did " + roles.get(i).getTerm().getKIFForm().trim() + " " + moves.items.get(i) + ")")));
            }
            return new Object[] {SortedSeesReasonerFactory.canonical(seen), new Move<Term>(term(moves.items.get(s.roleIndex)))};
        }
        throw new ProtocolException("expected (" + message.items.get(0) + " ID TURN LASTMOVE PERCEPTS), got " + message);
    }

    private Session current(SExpr message) throws ProtocolException {
        String matchId = message.get(1, "the match id").atom;
        if (session == null || !session.matchId.equals(matchId)) {
            throw new ProtocolException("no match " + matchId + " is running here");
        }
        session.lastHeard = System.currentTimeMillis();
        return session;
    }

    private String play(SExpr message) throws ProtocolException, InterruptedException {
        final Session s;
        final Object[] seen;
        Future<MoveInterface<Term>> answer;
        synchronized (lock) {
            s = current(message);
            seen = observations(s, message);
            s.plays++;
            answer = s.worker.submit(new Callable<MoveInterface<Term>>() {
                @Override
                public MoveInterface<Term> call() {
                    return s.player.gamePlay(seen[0], seen[1], s);
                }
            });
        }
        try {
            MoveInterface<Term> move = answer.get(10L * s.playClock + 60, TimeUnit.SECONDS);
            if (move == null) {
                throw new IllegalStateException("the agent chose no move");
            }
            return kif(move);
        } catch (ExecutionException exc) {
            LOG.log(Level.SEVERE, "the agent failed", exc.getCause());
            throw new IllegalStateException("the agent failed: " + exc.getCause());
        } catch (TimeoutException exc) {
            throw new IllegalStateException("the agent did not answer");
        }
    }

    private String stop(SExpr message) throws ProtocolException, InterruptedException {
        Future<?> done;
        final Session s;
        synchronized (lock) {
            if (session == null || !session.matchId.equals(message.get(1, "the match id").atom)) {
                return "done";
            }
            s = current(message);
            final Object[] seen = observations(s, message);
            done = s.worker.submit(() -> {
                s.player.gameStop(seen[0], seen[1], s);
                return null;
            });
            session = null;
        }
        try {
            done.get(1, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException exc) {
            // the match is over either way
        }
        s.end();
        return "done";
    }

    // ---- HTTP ----

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int total = 0;
        while (true) {
            int b = in.read();
            if (b < 0 || b == '\n') {
                break;
            }
            if (++total > MAX_HEAD) {
                throw new IOException("header too long");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString("ISO-8859-1");
    }

    private static void reply(OutputStream out, int status, String reason, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.0 " + status + " " + reason + "\r\n"
                + "Content-Type: text/acl\r\n"
                + "Content-Length: " + bytes.length + "\r\n"
                + "Access-Control-Allow-Origin: *\r\n"
                + "Access-Control-Allow-Methods: POST, GET, OPTIONS\r\n"
                + "Access-Control-Allow-Headers: Content-Type\r\n"
                + "Connection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
    }

    private void serve(Socket socket) {
        try (Socket s = socket) {
            s.setSoTimeout(10000);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            String request = readLine(in);
            int length = -1;
            for (String header = readLine(in); !header.isEmpty(); header = readLine(in)) {
                int colon = header.indexOf(':');
                if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                    length = Integer.parseInt(header.substring(colon + 1).trim());
                }
            }
            String method = request.split(" ", 2)[0].toUpperCase(Locale.ROOT);
            if (method.equals("OPTIONS")) {
                reply(out, 200, "OK", "");
                return;
            }
            if (!method.equals("POST")) {
                reply(out, 405, "Method Not Allowed", "only POST");
                return;
            }
            if (length < 0 || length > MAX_BODY) {
                reply(out, length < 0 ? 411 : 413, "Bad Length", "a Content-Length up to " + MAX_BODY + " is needed");
                return;
            }
            byte[] body = new byte[length];
            int got = 0;
            while (got < length) {
                int n = in.read(body, got, length - got);
                if (n < 0) {
                    throw new IOException("the request ended early");
                }
                got += n;
            }
            s.setSoTimeout(0);
            String text = new String(body, StandardCharsets.UTF_8);
            if (verbose) {
                System.err.println("<- " + text.trim());
            }
            String answer;
            try {
                answer = handle(text);
            } catch (ProtocolException exc) {
                if (verbose) {
                    System.err.println("-> 400 " + exc.getMessage());
                }
                reply(out, 400, "Bad Request", exc.getMessage());
                return;
            } catch (RuntimeException exc) {
                System.err.println("agent-server: " + exc.getMessage());
                reply(out, 500, "Internal Server Error", String.valueOf(exc.getMessage()));
                return;
            }
            if (verbose) {
                System.err.println("-> " + answer);
            }
            reply(out, 200, "OK", answer);
        } catch (IOException | NumberFormatException exc) {
            if (verbose) {
                System.err.println("agent-server: connection: " + exc.getMessage());
            }
        } catch (InterruptedException exc) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args[0].startsWith("-")) {
            System.err.println("usage: AgentServer AGENT [--port P] [--host H] [--name NAME] [-v]   (AGENT: one of " + AGENTS + ")");
            System.exit(2);
        }
        String agent = args[0];
        if (!AGENTS.contains(agent)) {
            System.err.println("AgentServer: unknown agent " + agent + "; choose one of " + AGENTS);
            System.exit(2);
        }
        int port = 9147;
        String host = "127.0.0.1";
        String name = "uwa-" + agent;
        boolean verbose = false;
        for (int i = 1; i < args.length; i++) {
            String option = args[i];
            if (option.equals("-v") || option.equals("--verbose")) {
                verbose = true;
                continue;
            }
            if (i + 1 >= args.length) {
                System.err.println("AgentServer: " + option + " needs a value");
                System.exit(2);
            }
            String value = args[++i];
            switch (option) {
                case "--port": port = Integer.parseInt(value); break;
                case "--host": host = value; break;
                case "--name": name = value; break;
                default:
                    System.err.println("AgentServer: unknown option " + option);
                    System.exit(2);
            }
        }
        Logger.getLogger("").setLevel(verbose ? Level.INFO : Level.SEVERE);
        new File("matches").mkdirs();  // the agents log their moves there
        AgentServer server = new AgentServer(agent, name, verbose);
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        try {
            listener.bind(new InetSocketAddress(InetAddress.getByName(host), port), 128);
        } catch (IOException exc) {
            System.err.println("AgentServer: cannot listen on " + host + ":" + port + ": " + exc.getMessage());
            System.exit(1);
        }
        System.out.println("listening on http://" + host + ":" + listener.getLocalPort());
        System.out.flush();
        while (true) {
            final Socket socket = listener.accept();
            Thread thread = new Thread(() -> server.serve(socket), "connection");
            thread.setDaemon(true);
            thread.start();
        }
    }
}
