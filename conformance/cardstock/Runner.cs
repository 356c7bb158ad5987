// The CardStock conformance runner: plays RECYCLE games with the CardStock engine and uniform
// random players, as the engine's "AllRnd" experiment does, and prints what it saw as JSON.
//
// Copyright (C) the CardStock authors and the contributors of this project.
// This program is free software: you can redistribute it and/or modify it under the terms of the
// GNU General Public License as published by the Free Software Foundation, either version 3 of
// the License, or (at your option) any later version. See LICENSE in this folder.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using Antlr4.Runtime;
using CardStock.CardEngine;
using CardStock.FreezeFrame;
using CardStock.Scoring;

namespace CardStock.Conformance
{
    /// <summary>A syntax error of the RECYCLE file, with its line and column.</summary>
    public class SyntaxErrors : BaseErrorListener, IAntlrErrorListener<int>
    {
        public readonly List<string> Messages = new List<string>();
        private readonly string file;

        public SyntaxErrors(string file) { this.file = file; }

        public override void SyntaxError(IRecognizer recognizer, IToken offendingSymbol, int line, int charPositionInLine, string msg, RecognitionException e)
        {
            Messages.Add(file + ":" + line + ":" + (charPositionInLine + 1) + ": " + msg);
        }

        public void SyntaxError(IRecognizer recognizer, int offendingSymbol, int line, int charPositionInLine, string msg, RecognitionException e)
        {
            Messages.Add(file + ":" + line + ":" + (charPositionInLine + 1) + ": " + msg);
        }
    }

    public static class Runner
    {
        const string Usage =
@"usage: mono runner.exe FILE.rcy [--games N] [--seed S] [--trace] [--limit L]

Plays N games (default 500) of the RECYCLE game FILE with the CardStock engine, every seat a
uniform random player, as CardStock's AllRnd experiment does. Game i is seeded with S + i
(default S: the CRC-32 of FILE's base name, as the reference statistics were made).

Without --trace, prints one JSON object with the fields of the reference statistics
(players, games_run, completed, failures_choice_limit, failures_exception, choices_mean, ...).
With --trace, prints one JSON line per event: {""event"": ""log""} for each line of the engine's
transcript (shuffles ""O:"", moves ""M:"", values set ""S:"", turns ""t:""...), {""event"": ""decision""}
for each decision (seat, options as the engine describes them, the index chosen) and
{""event"": ""end""} for each game's outcome; the statistics object comes last.
A game passing L choices (default 500, the engine's CHOICELIMIT) is stopped and counted as a failure.
Exit status: 0 on success, 2 for bad arguments or a file that does not parse.";

        public static int Main(string[] args)
        {
            var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { AutoFlush = false, NewLine = "\n" };
            // The engine writes remarks on the console; they go to standard error, the JSON to standard output.
            Console.SetOut(Console.Error);
            try
            {
                return Run(args, stdout);
            }
            finally
            {
                stdout.Flush();
            }
        }

        static int Fail(string message)
        {
            Console.Error.WriteLine("runner: " + message);
            return 2;
        }

        static int Run(string[] args, TextWriter stdout)
        {
            string file = null;
            int games = 500;
            long? seed = null;
            bool trace = false;
            int limit = 500;
            for (int k = 0; k < args.Length; k++)
            {
                string a = args[k];
                if (a == "-h" || a == "--help") { stdout.WriteLine(Usage); return 0; }
                if (a == "--trace") { trace = true; continue; }
                if (a == "--games" || a == "--seed" || a == "--limit")
                {
                    if (k + 1 >= args.Length) return Fail(a + " needs a value\n" + Usage);
                    long v;
                    if (!long.TryParse(args[++k], NumberStyles.Integer, CultureInfo.InvariantCulture, out v))
                        return Fail(a + " needs an integer, not '" + args[k] + "'");
                    if (a == "--games") { if (v < 1 || v > int.MaxValue) return Fail("--games must be at least 1"); games = (int)v; }
                    else if (a == "--limit") { if (v < 1 || v > int.MaxValue) return Fail("--limit must be at least 1"); limit = (int)v; }
                    else seed = v;
                    continue;
                }
                if (a.StartsWith("-")) return Fail("unknown option " + a + "\n" + Usage);
                if (file != null) return Fail("one game file only (got " + file + " and " + a + ")");
                file = a;
            }
            if (file == null) return Fail("no game file given\n" + Usage);
            if (!File.Exists(file)) return Fail(file + ": no such file");

            var errors = new SyntaxErrors(file);
            var tree = Parse(file, errors);
            if (errors.Messages.Count > 0)
            {
                foreach (var m in errors.Messages) Console.Error.WriteLine(m);
                return 2;
            }
            long baseSeed = seed ?? Crc32(Encoding.UTF8.GetBytes(Path.GetFileName(file)));
            var stats = new Stats();
            var world = new World();
            for (int i = 0; i < games; i++)
            {
                ThreadSafeRandom.Seed(SeedOf(baseSeed + i));
                Transcript.Sink = trace ? new TraceSink(stdout, i) : null;
                PlayOne(i, tree, world, limit, trace ? stdout : null, stats);
            }
            Transcript.Sink = null;
            stats.Write(stdout, file, baseSeed);
            return 0;
        }

        /// <summary>The seed given to System.Random: the low 32 bits of the game's seed, as a signed int.</summary>
        public static int SeedOf(long seed)
        {
            return unchecked((int)(uint)(seed & 0xFFFFFFFFL));
        }

        static RecycleParser.GameContext Parse(string file, SyntaxErrors errors)
        {
            // As ParseEngine.Loader: ";;" comments are cut before parsing.
            var text = File.ReadAllText(file);
            text = new Regex("(;;)(.*?)(\n)").Replace(text, "\n");
            var lexer = new RecycleLexer(new AntlrInputStream(text));
            lexer.RemoveErrorListeners();
            lexer.AddErrorListener(errors);
            var parser = new RecycleParser(new CommonTokenStream(lexer)) { BuildParseTree = true };
            parser.RemoveErrorListeners();
            parser.AddErrorListener(errors);
            return parser.game();
        }

        static void PlayOne(int i, RecycleParser.GameContext tree, World world, int limit, TextWriter trace, Stats stats)
        {
            var record = new GameRecord();
            try
            {
                var game = new CardGame();
                var gamePlay = new GameIterator(tree, game, world, "");
                while (!gamePlay.AdvanceToChoice())
                {
                    Decide(i, gamePlay, game, trace);
                    if (gamePlay.totalChoices > limit)
                    {
                        record.Ending = "choice_limit";
                        break;
                    }
                }
                record.Players = game.players.Length;
                record.Choices = gamePlay.totalChoices;
                record.Decisions = gamePlay.choiceList.Select(t => Tuple.Create(t.Item1, t.Item2)).ToList();
                if (record.Ending == null)
                {
                    var scored = gamePlay.ProcessScore();
                    record.Ending = "completed";
                    record.Results = scored.Item1;
                    record.Direction = scored.Item2 == 1 ? "max" : "min";
                }
            }
            catch (Exception e)
            {
                record.Ending = "exception";
                record.Error = e.GetType().Name + ": " + e.Message;
            }
            stats.Add(record);
            if (trace != null) Emit(trace, EndEvent(i, record));
        }

        /// <summary>GameIterator.ProcessChoice, step by step, describing the options before one is chosen.</summary>
        static void Decide(int i, GameIterator gamePlay, CardGame game, TextWriter trace)
        {
            var allOptions = gamePlay.BuildOptions();
            int seat = game.CurrentPlayer().idx;
            List<string> described = trace == null ? null : allOptions.Select(Describe.Option).ToList();
            int choice = game.PlayerMakeChoice(allOptions.Count, seat);
            if (allOptions.Count == 0)
            {
                throw new InvalidOperationException("no choice available to seat " + seat);
            }
            if (trace != null)
            {
                var j = new StringBuilder();
                j.Append("{\"event\": \"decision\", \"game\": ").Append(i)
                 .Append(", \"decision\": ").Append(gamePlay.totalChoices)
                 .Append(", \"seat\": ").Append(seat)
                 .Append(", \"count\": ").Append(allOptions.Count)
                 .Append(", \"options\": [").Append(string.Join(", ", described.Select(Json.Str))).Append("]")
                 .Append(", \"chosen\": ").Append(choice).Append("}");
                Emit(trace, j.ToString());
            }
            allOptions[choice].ExecuteAll();
            gamePlay.PopCurrentNode();
            gamePlay.choiceList.Add(new Tuple<int, int>(game.CurrentPlayer().idx, allOptions.Count));
            gamePlay.totalChoices++;
        }

        static string EndEvent(int i, GameRecord r)
        {
            var j = new StringBuilder();
            j.Append("{\"event\": \"end\", \"game\": ").Append(i).Append(", \"ending\": ").Append(Json.Str(r.Ending))
             .Append(", \"choices\": ").Append(r.Choices);
            if (r.Results != null)
            {
                var scores = new int[r.Players];
                foreach (var t in r.Results) scores[t.Item2] = t.Item1;
                j.Append(", \"scores\": [").Append(string.Join(", ", scores)).Append("]")
                 .Append(", \"winners\": [").Append(string.Join(", ", r.Winners())).Append("]")
                 .Append(", \"scoring_direction\": ").Append(Json.Str(r.Direction));
            }
            if (r.Error != null) j.Append(", \"error\": ").Append(Json.Str(r.Error));
            return j.Append("}").ToString();
        }

        static void Emit(TextWriter w, string line)
        {
            w.WriteLine(line);
        }

        /// <summary>The standard CRC-32 (as zlib's crc32 and Python's binascii.crc32).</summary>
        public static long Crc32(byte[] data)
        {
            uint crc = 0xFFFFFFFFu;
            foreach (byte b in data)
            {
                crc ^= b;
                for (int k = 0; k < 8; k++) crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
            }
            return ~crc;
        }
    }

    /// <summary>Writes each transcript line of one game as a trace event.</summary>
    class TraceSink : TextWriter
    {
        private readonly TextWriter target;
        private readonly int game;

        public TraceSink(TextWriter target, int game) { this.target = target; this.game = game; }

        public override Encoding Encoding { get { return Encoding.UTF8; } }

        public override void WriteLine(string value)
        {
            target.WriteLine("{\"event\": \"log\", \"game\": " + game + ", \"text\": " + Json.Str(value) + "}");
        }
    }
}
