"""Games as a person reads them: the table of a state, moves and percepts in words.

Plain functions from a state (or what a role knows of it) and the game's rules to a model of
the table (:mod:`ggp.view.table`), drawn by the web pages (:mod:`ggp.web`), the console player
``human`` and ``ggp match --watch`` alike:

- :mod:`ggp.view.scheme`: how translated card games spell cards, locations and values (the one
  module that follows the RECYCLE translator's naming);
- :mod:`ggp.view.cards`, :mod:`ggp.view.glossary`: readable names of cards and any term;
- :mod:`ggp.view.knowledge`: what a viewer knows (everything, or a role's belief);
- :mod:`ggp.view.table`: the table model; :mod:`ggp.view.text`: the table as text;
- :mod:`ggp.view.moves`: move labels (from their effects where their names say nothing) and
  percepts in words;
- :mod:`ggp.view.match`: a recorded match step by step, for everyone or for one role.
"""
