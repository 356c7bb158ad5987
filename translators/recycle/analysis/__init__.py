"""What is known of a RECYCLE game before any rule is written: scopes and checks, the static
model (seats, cards, locations, storage), where cards can be, integer ranges, how things are
spelled in GDL."""
