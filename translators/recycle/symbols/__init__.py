"""What a RECYCLE game declares and how it is named: the static model (seats, teams, cards,
locations, storage), how each is spelled in GDL, variable scopes and the static checks of
``ggp validate``."""
