package prompts

import "context"

// SetFavorite marks or unmarks an entry.
func (s *Store) SetFavorite(ctx context.Context, id int64, on bool) error {
	_, err := s.db.ExecContext(ctx, `UPDATE prompts SET favorite = ? WHERE id = ?`, on, id)
	return err
}
